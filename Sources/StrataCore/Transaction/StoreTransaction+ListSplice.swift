extension StoreTransaction {
    /// Replaces elements `range` of list column `column` of object `key` with `added` (an
    /// insert when the range is empty, a removal when `added` is). The stored elements outside
    /// the range are neither decoded nor written again; the removed links lose their backlinks
    /// and the added ones gain them (an embedded object no longer in the list is deleted).
    /// - Returns: the elements the range held.
    /// - Throws: `StoreError.objectMissing` when the object was deleted, `.typeMismatch` when the
    ///   column does not hold a list, the list is shorter than `range` or an element does not
    ///   fit; `.nullNotAllowed`.
    @discardableResult
    package func spliceList(
        _ table: StoreTable, key: Int64, column: Int, _ range: Range<Int>, with added: [StoreValue]
    ) throws -> [StoreValue] {
        let col = table.columns[column]
        guard col.collection == .list, !col.hasIndexTree else {
            throw StoreError.typeMismatch(
                table: table.name, column: col.name, expected: "a list", found: "\(col.collection)")
        }
        guard !range.isEmpty || !added.isEmpty else {
            if try row(table, key: key) == nil { throw StoreError.objectMissing(table: table.name, key: key) }
            return []
        }
        var removed: [StoreValue] = []
        try rewriteObject(table, key: key) { e, p throws(StoreError) in
            removed = try e.spliceList(column: column, at: p, range, added)
        }
        // Replacing elements with equal ones (`list[i] = list[i]`) changes nothing to report.
        guard removed != added else { return removed }
        if col.type == .link {
            try updateLinks(table, column: column, key: key, old: .list(removed), new: .list(added))
            try deleteOrphanedEmbedded(col, old: .list(removed), new: .list(added))
        }
        changeCount &+= 1
        changeRecorder?.modify(table.name, key, column: column)
        return removed
    }
}
