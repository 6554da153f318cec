extension StoreTransaction {
    /// Sets entry `mapKey` of map column `column` of object `key` to `value`, or removes the
    /// entry when `value` is nil. The stored map's other entries are neither decoded nor
    /// encoded again; a link value gains its backlink and the one it replaced loses its own (an
    /// embedded object no longer held is deleted).
    /// - Returns: the value the entry held before (nil when there was none).
    /// - Throws: `StoreError.objectMissing` when the object was deleted, `.typeMismatch` when the
    ///   column does not hold a map or `value` does not fit it, `.nullNotAllowed`.
    @discardableResult
    package func setMapEntry(
        _ table: StoreTable, key: Int64, column: Int, mapKey: String, to value: StoreValue?
    ) throws -> StoreValue? {
        let col = table.columns[column]
        guard col.collection == .map, !col.hasIndexTree else {
            throw StoreError.typeMismatch(
                table: table.name, column: col.name, expected: "a map", found: "\(col.collection)")
        }
        var outcome: (previous: StoreValue?, changed: Bool) = (nil, false)
        try rewriteObject(table, key: key) { e, p throws(StoreError) in
            outcome = try e.setMapEntry(column: column, at: p, key: mapKey, value)
        }
        guard outcome.changed else { return outcome.previous }
        if col.type == .link {
            try updateLinks(table, column: column, key: key, old: outcome.previous ?? .null, new: value ?? .null)
            try deleteOrphanedEmbedded(col, old: outcome.previous ?? .null, new: value ?? .null)
        }
        changeCount &+= 1
        changeRecorder?.modify(table.name, key, column: column)
        return outcome.previous
    }
}
