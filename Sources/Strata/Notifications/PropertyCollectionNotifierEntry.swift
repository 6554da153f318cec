import Foundation
internal import StrataCore

/// The observer of a collection property of one object: a `List`, a `MutableSet` or a `Map`
/// (its elements are the value of one column of the owner's row).
///
/// Each round looks at the owner's column only when the span changed it; modifications are
/// elements that link to objects changed in a watched way (`targetFilter`). Lists and sets are
/// diffed by element identity (the value and its occurrence number, so repeated elements are
/// told apart); a deleted owner reports every element deleted, once, and ends the observer.
final class PropertyCollectionNotifierEntry: NotifierEntry, @unchecked Sendable {
    enum Event {
        case initial
        case update(CollectionDiff)
        case mapUpdate(deletions: [String], insertions: [String], modifications: [String])
        case error(Swift.Error)
    }

    let table: StoreTable
    let ownerKey: Int64
    let column: Int
    let isMap: Bool
    let targetFilter: KeyPathFilter?
    let makeJob: (Event) -> NotificationJob
    private var elements: [StoreValue] = []
    private var entries: [String: StoreValue] = [:]
    private var finished = false

    init(
        token: NotificationToken, target: DeliveryTarget, table: StoreTable, ownerKey: Int64, column: Int, isMap: Bool,
        targetFilter: KeyPathFilter?, makeJob: @escaping (Event) -> NotificationJob
    ) {
        self.table = table
        self.ownerKey = ownerKey
        self.column = column
        self.isMap = isMap
        self.targetFilter = targetFilter
        self.makeJob = makeJob
        super.init(token: token, target: target, needsInitial: true)
    }

    private func read(_ txn: StoreTransaction) throws -> StoreValue? {
        try txn.row(table, key: ownerKey)?.value(column)
    }

    private func store(_ value: StoreValue?) {
        switch value {
        case .list(let xs)?: elements = xs; entries = [:]
        case .map(let m)?: entries = m; elements = []
        default: elements = []; entries = [:]
        }
    }

    override func initial(in txn: StoreTransaction) throws -> NotificationJob? {
        store(try read(txn))
        return guarded(makeJob(.initial))
    }

    /// Identities for the diff: each element with its occurrence number among equal elements.
    private static func identities(_ xs: [StoreValue]) -> [[UInt8]] {
        var seen: [[UInt8]: Int] = [:]
        return xs.map { v in
            var key = IndexKey.encode(v)
            let n = seen[key, default: 0]
            seen[key] = n + 1
            withUnsafeBytes(of: n) { key.append(contentsOf: $0) }
            return key
        }
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        if finished { return nil }
        let changes = try span.changes(table.name)
        let ownerGone = changes.deleted.contains(ownerKey)
        let written = changes.modified[ownerKey]?.contains(column) ?? false
        let changedTargets = try targetFilter?.modifiedKeys(span) ?? []
        if !ownerGone && !written && changedTargets.isEmpty { return nil }
        let oldElements = elements, oldEntries = entries
        if ownerGone {
            finished = true
            store(nil)
        } else if written {
            store(try read(span.new))
        }
        func linksToChanged(_ v: StoreValue?) -> Bool {
            if case .link(let k)? = v { return changedTargets.contains(k) }
            return false
        }
        let job: NotificationJob?
        if isMap {
            var deletions: [String] = [], insertions: [String] = [], modifications: [String] = []
            for (k, v) in oldEntries {
                guard let n = entries[k] else { deletions.append(k); continue }
                if n != v || linksToChanged(n) { modifications.append(k) }
            }
            for k in entries.keys where oldEntries[k] == nil { insertions.append(k) }
            if deletions.isEmpty && insertions.isEmpty && modifications.isEmpty { return nil }
            job = makeJob(
                .mapUpdate(
                    deletions: deletions.sorted(), insertions: insertions.sorted(),
                    modifications: modifications.sorted()))
        } else {
            let oldIDs = Self.identities(oldElements), newIDs = Self.identities(elements)
            var modifiedIDs = Set<[UInt8]>()
            if !changedTargets.isEmpty {
                for (i, v) in oldElements.enumerated() where linksToChanged(v) { modifiedIDs.insert(oldIDs[i]) }
            }
            let diff = CollectionDiff.between(oldIDs, newIDs, isModified: modifiedIDs.contains)
            if diff.isEmpty { return nil }
            job = makeJob(.update(diff))
        }
        if silently { return nil }
        return job.map(guarded)
    }

    override func errorJob(_ error: Swift.Error) -> NotificationJob? {
        if finished { return nil }
        finished = true
        return guarded(makeJob(.error(error)))
    }
}

extension _CollectionOwner {
    /// Registers `entry`-making observation of this collection property; the common part of
    /// `List`, `MutableSet` and `Map` `observe`.
    func observe(
        keyPaths: [String]?, queue: DispatchQueue?, isMap: Bool,
        makeJob: @escaping (PropertyCollectionNotifierEntry.Event) -> NotificationJob
    ) -> NotificationToken {
        guard let target = DeliveryTarget.make(for: state.realm, queue: queue, inWriteCheck: true) else {
            return NotificationToken()
        }
        return observe(keyPaths: keyPaths, target: target, isMap: isMap, makeJob: makeJob)
    }

    /// Registers observation of this collection property, delivering to `target`.
    func observe(
        keyPaths: [String]?, target: DeliveryTarget, isMap: Bool,
        makeJob: @escaping (PropertyCollectionNotifierEntry.Event) -> NotificationJob
    ) -> NotificationToken {
        let token = NotificationToken()
        let realm = state.realm
        let binding = state.binding
        let column = binding.columns[index]
        let col = binding.table.columns[column]
        var filter: KeyPathFilter?
        if col.type == .link, let targetName = col.targetTable,
            let targetBinding = realm.file.allBindings().first(where: { $0.table.name == targetName })
        {
            guard let f = KeyPathFilter.make(keyPaths, binding: targetBinding, file: realm.file) else { return token }
            filter = f
        }
        let entry = PropertyCollectionNotifierEntry(
            token: token, target: target, table: binding.table, ownerKey: state.key, column: column,
            isMap: isMap, targetFilter: filter, makeJob: makeJob)
        token.attach(entry, to: realm.file.notifier)
        return token
    }

    /// The same collection property, of the same object, in `realm` (the realm a notification
    /// is delivered to).
    func moved(to realm: Realm) -> _CollectionOwner {
        if realm.realmState === state.realm.realmState { return self }
        return _CollectionOwner(
            state: ManagedObjectState(realm: realm, binding: state.binding, key: state.key), index: index)
    }
}

extension List {
    /// Calls `block` with the list's changes: `.initial` once (asynchronously, after this
    /// returned), then `.update` with the indices deleted (in the previous version), inserted
    /// and modified (objects changed in a watched property, indices in the previous version),
    /// for commits from any realm, thread or process. Deleting the owning object reports every
    /// element deleted, and ends the notifications.
    ///
    /// - Parameters:
    ///   - keyPaths: For a list of objects, the element properties that count as modifications
    ///     (`"name"`, `"toy.brand"`); nil for all of them and the objects they link to.
    ///   - queue: A serial queue to deliver on; nil for the realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    ///
    /// Only managed lists can be observed; registering inside a write transaction, on a frozen
    /// list, or from a thread that runs no run loop is reported as RealmSwift does.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }
}

extension MutableSet {
    /// Calls `block` with the set's changes, as `List.observe(keyPaths:on:_:)` does (indices
    /// are positions in the set's stored order).
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }
}

extension Map {
    /// Calls `block` with the map's changes: `.initial` once (asynchronously), then `.update`
    /// with the keys removed, added, and whose values changed (or whose linked objects changed
    /// in a watched property), for commits from any realm, thread or process.
    ///
    /// - Parameters:
    ///   - keyPaths: For a map of objects, the value properties that count as modifications; nil
    ///     for all of them.
    ///   - queue: A serial queue to deliver on; nil for the realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void
    ) -> NotificationToken {
        guard let owner else {
            return Realm.violation(
                "Only maps which are managed by a Realm support change notifications. Add the owning object to a realm first.",
                fallback: NotificationToken())
        }
        return owner.observe(keyPaths: keyPaths, queue: queue, isMap: true) { event in
            { realm in
                let map = Map(owner: owner.moved(to: realm))
                switch event {
                case .initial: block(.initial(map))
                case .mapUpdate(let d, let i, let m): block(.update(map, deletions: d, insertions: i, modifications: m))
                case .error(let e): block(.error(e))
                case .update: break
                }
            }
        }
    }
}
