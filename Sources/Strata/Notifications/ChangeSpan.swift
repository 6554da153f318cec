import Foundation
internal import StrataCore
internal import StrataStorage

/// What changed between two versions the notifier compares.
///
/// Built from the commits' records when every commit in between has one; otherwise (a commit of
/// another process, a schema change, a record that overflowed) each table an observer asks
/// about is compared row by row between the two versions, once per round.
final class ChangeSpan {
    let old: StoreTransaction?
    let new: StoreTransaction
    /// Entries skipped by the silent commit this span consists of.
    let skipped: Set<ObjectIdentifier>
    private var merged: [String: TableChanges]?
    private var rewritten: Set<String> = []
    private var compared: [String: TableChanges] = [:]
    /// `KeyPathFilter.modifiedKeys` per filter, computed once per span.
    var filterCache: [ObjectIdentifier: Set<Int64>] = [:]

    init(old: StoreTransaction?, new: StoreTransaction, records: [CommitChanges]?, skipped: Set<ObjectIdentifier>) {
        self.old = old
        self.new = new
        self.skipped = skipped
        if let records {
            var m: [String: TableChanges] = [:]
            for r in records {
                for (name, changes) in r.tables { m[name, default: TableChanges()].append(changes) }
                rewritten.formUnion(r.rewrittenTables)
            }
            merged = m
        }
    }

    /// Whether the span comes from complete records (so `changedTables` is exact).
    var isRecorded: Bool { merged != nil }

    /// The tables the records name, or nil when the span was not recorded.
    var changedTables: Set<String>? {
        guard let merged else { return nil }
        return Set(merged.keys).union(rewritten)
    }

    /// What changed in table `name` between the two versions.
    func changes(_ name: String) throws -> TableChanges {
        if let merged, !rewritten.contains(name) { return merged[name] ?? TableChanges() }
        if let c = compared[name] { return c }
        let c = try compare(name)
        compared[name] = c
        return c
    }

    /// Compares table `name` in the two versions: the rows of the leaves only one of them
    /// reaches (leaves both reach hold the same rows), so the cost follows what changed plus
    /// one walk over each version's leaves.
    private func compare(_ name: String) throws -> TableChanges {
        var out = TableChanges()
        var before: [Int64: [StoreValue]] = [:]
        let oldTable = old?.tables[name], newTable = new.tables[name]
        var shared = Set<LeafIdentity>()
        if let old, let oldTable, let newTable, oldTable === newTable || oldTable.columns == newTable.columns {
            shared = try old.leafIdentities(oldTable).intersection(try new.leafIdentities(newTable))
        }
        if let old, let table = oldTable {
            try old.forEachRow(table, skippingLeaves: shared) { r in before[r.key] = r.values() }
        }
        if let table = newTable {
            try new.forEachRow(table, skippingLeaves: shared) { r in
                if let o = before.removeValue(forKey: r.key) {
                    let n = r.values()
                    if o != n {
                        var columns = ColumnSet()
                        for c in 0..<max(o.count, n.count) where c >= o.count || c >= n.count || o[c] != n[c] {
                            columns.insert(c)
                        }
                        out.modified[r.key] = columns
                    }
                } else {
                    out.inserted.insert(r.key)
                }
            }
        }
        out.deleted = Set(before.keys)
        return out
    }
}
