@_spi(StrataEngine) import StrataStorage

extension StoreTransaction {
    /// The identities of the leaves holding `table`'s objects.
    package func leafIdentities(_ table: StoreTable) throws -> Set<LeafIdentity> {
        var out = Set<LeafIdentity>()
        try forEachLeaf(tree: table.objectTree) { leaf in
            out.insert(leaf.identity)
            return true
        }
        return out
    }

    /// Calls `body` with each row of `table` stored in a leaf whose identity is not in `skip`,
    /// in key order. Comparing two snapshots, rows in leaves both reach are equal, so only the
    /// other leaves' rows need comparing.
    package func forEachRow(
        _ table: StoreTable, skippingLeaves skip: Set<LeafIdentity>, _ body: (RowReader) throws -> Void
    ) throws {
        var reader = RowReader(table: table)
        try forEachLeaf(tree: table.objectTree) { leaf in
            if skip.contains(leaf.identity) { return true }
            for i in 0..<leaf.count {
                let (_, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                let view = try clusterView(v, table)
                for p in 0..<view.count {
                    reader.move(to: view, position: p, key: view.key(at: p))
                    try body(reader)
                }
            }
            return true
        }
    }
}
