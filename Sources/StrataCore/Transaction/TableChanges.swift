/// What one table's objects went through in one commit (or in several, merged): the keys of the
/// objects it inserted, of those it deleted, and per modified object the columns written.
///
/// An object inserted and deleted in the same span appears in neither set; one deleted and
/// inserted again under the same key (a primary key reused) counts as modified in every column.
package struct TableChanges: Sendable, Equatable {
    package var inserted: Set<Int64> = []
    package var deleted: Set<Int64> = []
    package var modified: [Int64: ColumnSet] = [:]

    package init() {}

    package var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Every key the span touched.
    package var touchedKeys: Set<Int64> { inserted.union(deleted).union(modified.keys) }

    mutating func noteInsert(_ key: Int64) {
        if deleted.remove(key) != nil {
            modified[key] = .all
        } else {
            inserted.insert(key)
        }
    }

    mutating func noteDelete(_ key: Int64) {
        modified[key] = nil
        if inserted.remove(key) == nil { deleted.insert(key) }
    }

    mutating func noteModify(_ key: Int64, _ columns: ColumnSet) {
        if inserted.contains(key) { return }
        modified[key, default: ColumnSet()].formUnion(columns)
    }

    /// Appends the changes of a later span.
    package mutating func append(_ later: TableChanges) {
        for k in later.deleted { noteDelete(k) }
        for k in later.inserted { noteInsert(k) }
        for (k, c) in later.modified { noteModify(k, c) }
    }
}
