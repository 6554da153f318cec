import Foundation
internal import StrataCore

/// The observer of a query's results (`Results.observe` and the collections built on queries):
/// the matching keys as last reported, and how to report a change.
///
/// Each round moves `keys` to the new version. When the span's records show that only the
/// query's own table changed and the query reads nothing else, only the changed objects are
/// tested against the predicate: for results in key order the new keys come from merging those
/// few into the old ones, at the cost of one pass of copying. Otherwise the query runs again
/// and the two key lists are compared.
final class ResultsNotifierEntry: NotifierEntry, @unchecked Sendable {
    enum Event {
        case initial
        case update(CollectionDiff)
        case error(Swift.Error)
    }

    let query: StoreQuery
    let table: StoreTable
    let filter: KeyPathFilter
    let makeJob: (Event) -> NotificationJob
    private(set) var keys: [Int64] = []
    private var failed = false

    init(
        token: NotificationToken, target: DeliveryTarget, query: StoreQuery, table: StoreTable, filter: KeyPathFilter,
        makeJob: @escaping (Event) -> NotificationJob
    ) {
        self.query = query
        self.table = table
        self.filter = filter
        self.makeJob = makeJob
        super.init(token: token, target: target, needsInitial: true)
    }

    override func initial(in txn: StoreTransaction) throws -> NotificationJob? {
        keys = try query.evaluate(in: txn, table: table)
        return guarded(makeJob(.initial))
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        if failed { return nil }
        let modified = try filter.modifiedKeys(span)
        let diff: CollectionDiff
        let newKeys: [Int64]
        let own = try span.changes(table.name)
        if let changed = span.changedTables, query.readsOnlyItsTable {
            if own.isEmpty || !changed.contains(table.name) {
                newKeys = keys
                diff = CollectionDiff.between(keys, keys, isModified: modified.contains)
            } else if query.isInKeyOrder {
                (newKeys, diff) = try Self.merge(
                    keys, own, modified: modified, query: query, table: table, txn: span.new)
            } else {
                newKeys = try query.evaluate(in: span.new, table: table)
                diff = CollectionDiff.between(keys, newKeys, isModified: modified.contains)
            }
        } else {
            newKeys = try query.evaluate(in: span.new, table: table)
            diff = CollectionDiff.between(keys, newKeys, isModified: modified.contains)
        }
        keys = newKeys
        if silently || diff.isEmpty { return nil }
        return guarded(makeJob(.update(diff)))
    }

    override func errorJob(_ error: Swift.Error) -> NotificationJob? {
        if failed { return nil }
        failed = true
        return guarded(makeJob(.error(error)))
    }

    /// The new keys of results in key order when only the objects of `changes` may have joined
    /// or left them: those objects are tested, and merged into `old` in one pass.
    static func merge(
        _ old: [Int64], _ changes: TableChanges, modified: Set<Int64>, query: StoreQuery,
        table: StoreTable, txn: StoreTransaction
    ) throws -> ([Int64], CollectionDiff) {
        var candidates = Array(changes.inserted)
        candidates.append(contentsOf: changes.modified.keys)
        candidates.sort()
        let matching = Set(try query.matchingKeys(candidates, in: txn, table: table))
        func position(_ k: Int64) -> Int? {
            var lo = 0, hi = old.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if old[mid] < k { lo = mid + 1 } else { hi = mid }
            }
            return lo < old.count && old[lo] == k ? lo : nil
        }
        var removed: [Int] = []
        var added: [Int64] = []
        for k in changes.deleted { if let i = position(k) { removed.append(i) } }
        for k in candidates {
            let i = position(k)
            let now = matching.contains(k)
            if let i, !now { removed.append(i) }
            if i == nil, now { added.append(k) }
        }
        removed.sort()
        var diff = CollectionDiff()
        diff.deletions = removed
        for k in modified {
            if let i = position(k), matching.contains(k) || !changes.touchedKeys.contains(k) {
                diff.modifications.append(i)
            }
        }
        diff.modifications.sort()
        if removed.isEmpty && added.isEmpty { return (old, diff) }
        // One pass: copy the runs of `old` between the removed positions and the places the
        // added keys go (ascending keys: each goes before the first larger old key).
        func lowerBound(_ k: Int64) -> Int {
            var lo = 0, hi = old.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if old[mid] < k { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        // (position, key): a key to insert before old[position], or nil to drop old[position].
        var events: [(position: Int, key: Int64?)] = removed.map { ($0, nil) }
        for k in added { events.append((lowerBound(k), k)) }
        events.sort { a, b in
            if a.position != b.position { return a.position < b.position }
            switch (a.key, b.key) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            default: return false
            }
        }
        var out: [Int64] = []
        out.reserveCapacity(old.count - removed.count + added.count)
        var cursor = 0
        for e in events {
            if e.position > cursor { out.append(contentsOf: old[cursor..<e.position]); cursor = e.position }
            if let k = e.key {
                diff.insertions.append(out.count)
                out.append(k)
            } else {
                cursor = e.position + 1
            }
        }
        if cursor < old.count { out.append(contentsOf: old[cursor...]) }
        return (out, diff)
    }
}
