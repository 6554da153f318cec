import Foundation
internal import StrataCore

extension LinkingObjects {
    /// Calls `block` with the changes of the objects linking to the owner: `.initial` once
    /// (asynchronously), then `.update` with indices deleted (previous version), inserted (new
    /// version) and modified (objects changed in a watched property, previous version), for
    /// commits from any realm, thread or process.
    ///
    /// - Parameters:
    ///   - keyPaths: The linking objects' properties that count as modifications; nil for all.
    ///   - queue: A serial queue to deliver on; nil for the realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        let token = NotificationToken()
        guard let owner else {
            return Realm.violation("Only linking objects of a managed object support change notifications.", fallback: token)
        }
        let realm = owner.realm
        let state = owner.state
        let property = state.binding.schema.properties[owner.index]
        let stored = state.binding.table.columns[state.binding.columns[owner.index]].originProperty
        guard let target = DeliveryTarget.make(for: realm, queue: queue, inWriteCheck: true),
              let originName = property.objectClassName, let column = stored ?? property.linkOriginPropertyName,
              let originBinding = realm.binding(named: originName) ?? realm.bindingForName(originName, from: state.binding),
              let filter = KeyPathFilter.make(keyPaths, binding: originBinding, file: realm.file) else { return token }
        let entry = LinkingObjectsNotifierEntry(token: token, target: target, table: state.binding.table, key: state.key,
                                                origin: originBinding.table.name, column: column, filter: filter) { event in
            { realm in
                let moved = owner.moved(to: realm)
                let objects = LinkingObjects._strataManagedGet(moved.state, moved.index)
                switch event {
                case .initial: block(.initial(objects))
                case .update(let d): block(.update(objects, deletions: d.deletions, insertions: d.insertions, modifications: d.modifications))
                case .error(let e): block(.error(e))
                }
            }
        }
        token.attach(entry, to: realm.file.notifier)
        return token
    }
}

/// The observer of one object's linking objects: the origin keys from the backlink tree, read
/// again when the origin table changed.
final class LinkingObjectsNotifierEntry: NotifierEntry, @unchecked Sendable {
    let table: CoreTable
    let key: Int64
    let origin: String
    let column: String
    let filter: KeyPathFilter
    let makeJob: (ResultsNotifierEntry.Event) -> NotificationJob
    private var keys: [Int64] = []

    init(token: NotificationToken, target: DeliveryTarget, table: CoreTable, key: Int64, origin: String, column: String,
         filter: KeyPathFilter, makeJob: @escaping (ResultsNotifierEntry.Event) -> NotificationJob) {
        self.table = table
        self.key = key
        self.origin = origin
        self.column = column
        self.filter = filter
        self.makeJob = makeJob
        super.init(token: token, target: target, needsInitial: true)
    }

    override func initial(in txn: StoreTransaction) throws -> NotificationJob? {
        keys = try txn.backlinks(to: table, key: key, from: origin, column: column)
        return guarded(makeJob(.initial))
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        let originChanged = try !span.changes(origin).isEmpty
        let modified = try filter.modifiedKeys(span)
        let newKeys = originChanged ? try span.new.backlinks(to: table, key: key, from: origin, column: column) : keys
        let diff = CollectionDiff.between(keys, newKeys, isModified: modified.contains)
        keys = newKeys
        if silently || diff.isEmpty { return nil }
        return guarded(makeJob(.update(diff)))
    }

    override func errorJob(_ error: Swift.Error) -> NotificationJob? {
        guarded(makeJob(.error(error)))
    }
}
