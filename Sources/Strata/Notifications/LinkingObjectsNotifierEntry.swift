import Foundation
internal import StrataCore

/// The observer of one object's linking objects: the origin keys from the backlink tree, read
/// again when the origin table changed.
final class LinkingObjectsNotifierEntry: NotifierEntry, @unchecked Sendable {
    let table: StoreTable
    let key: Int64
    let origin: String
    let column: String
    let filter: KeyPathFilter
    let makeJob: (ResultsNotifierEntry.Event) -> NotificationJob
    private var keys: [Int64] = []

    init(
        token: NotificationToken, target: DeliveryTarget, table: StoreTable, key: Int64, origin: String, column: String,
        filter: KeyPathFilter, makeJob: @escaping (ResultsNotifierEntry.Event) -> NotificationJob
    ) {
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
