extension StoreTransaction {
    /// Appends `added` to list column `column` of object `key`. The stored elements are neither
    /// decoded, compared with a new value nor re-counted as links: the new elements' encoding is
    /// added after the stored ones and only they gain backlinks.
    /// - Throws: `StoreError.objectMissing` when the object was deleted, `.typeMismatch` when the
    ///   column does not hold a list.
    package func appendToList(_ table: StoreTable, key: Int64, column: Int, _ added: [StoreValue]) throws {
        let col = table.columns[column]
        guard col.collection == .list, !col.hasIndexTree else {
            throw StoreError.typeMismatch(
                table: table.name, column: col.name, expected: "a list", found: "\(col.collection)")
        }
        guard !added.isEmpty else {
            if try row(table, key: key) == nil { throw StoreError.objectMissing(table: table.name, key: key) }
            return
        }
        try appendEncoded(table, key: key, column: column, added)
    }

    /// Adds to set column `column` of object `key` each of `candidates` that is not a member yet
    /// (nor an earlier candidate), after the stored members, which are decoded but not written
    /// again element by element; only the added elements gain backlinks.
    /// - Throws: `StoreError.objectMissing` when the object was deleted, `.typeMismatch` when the
    ///   column does not hold a set.
    package func insertIntoSet(_ table: StoreTable, key: Int64, column: Int, _ candidates: [StoreValue]) throws {
        let col = table.columns[column]
        guard col.collection == .set, !col.hasIndexTree else {
            throw StoreError.typeMismatch(
                table: table.name, column: col.name, expected: "a set", found: "\(col.collection)")
        }
        guard let old = try row(table, key: key) else { throw StoreError.objectMissing(table: table.name, key: key) }
        var members: Set<StoreValue>
        switch old.value(column) {
        case .list(let stored): members = Set(stored)
        case .null: members = []
        case let other:
            throw StoreError.typeMismatch(table: table.name, column: col.name, expected: "a set", found: other.kindName)
        }
        let added = candidates.filter { members.insert($0).inserted }
        guard !added.isEmpty else { return }
        try appendEncoded(table, key: key, column: column, added)
    }

    /// Writes `added` after the stored elements of collection column `column` of object `key`,
    /// gives the added links their backlinks and records the change.
    private func appendEncoded(_ table: StoreTable, key: Int64, column: Int, _ added: [StoreValue]) throws {
        try rewriteObject(table, key: key) { e, p throws(StoreError) in try e.appendToList(column: column, at: p, added)
        }
        if table.columns[column].type == .link { try addLinks(table, column: column, key: key, value: .list(added)) }
        changeCount &+= 1
        changeRecorder?.modify(table.name, key, column: column)
    }
}
