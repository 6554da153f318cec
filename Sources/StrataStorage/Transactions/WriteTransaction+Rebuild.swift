import StrataPOSIX

extension WriteTransaction {
    /// The name of the tree a rebuild fills before it takes the original's place.
    static let rebuildTreeName = "~rebuilding"

    /// Rewrites the tree `name` with full pages: its entries are inserted in key order into a new
    /// tree (appends fill each page before starting the next), which then takes the old tree's
    /// place; the old tree's pages are freed. Nothing changes for readers: the entries are the
    /// same. One transaction holds the whole rebuild, so no writer can change the tree halfway.
    func rebuildTree(_ name: String) throws {
        try beginChange()
        guard name != Self.rebuildTreeName, try treeExists(name) else { return }
        let old = try openTree(name)
        let oldRoot = trees[old.index].root
        guard oldRoot != 0 else { return }
        // The values move with their area references as they are: the areas stay where they are.
        let temp = try openTree(Self.rebuildTreeName, create: true, holdsAreas: trees[old.index].holdsAreas)
        // The old tree's pages belong to a committed version: inserting never overwrites them, so
        // they can be read while the new tree grows (through the mapping this access holds).
        let source = access
        // Inserted without counting area references: each value moves, its areas stay counted once.
        try source.forEach(root: oldRoot, from: nil) { key, value in
            try beginChange()
            _ = try put(key, value, &trees[temp.index], ifAbsent: true)
            trees[temp.index].dirty = true
            return true
        }
        try freeSubtree(oldRoot)
        trees[old.index].root = trees[temp.index].root
        trees[old.index].dirty = true
        // The temporary tree's pages now belong to `name`: forget it without freeing them.
        trees[temp.index].root = 0
        trees[temp.index].count = 0
        trees[temp.index].dropped = true
        trees[temp.index].dirty = true
    }
}

extension Database {
    /// Shrinks the file as far as ``compact()`` can after rewriting every tree with full pages:
    /// a file whose objects were mostly deleted keeps half-empty pages that moving pages alone
    /// does not merge. Each tree is rebuilt in a durable commit of its own (readers go on; a
    /// writer waits for that commit), then ``compact()`` moves the pages down and cuts off the
    /// free end. The rebuild writes each tree anew before freeing its old pages, so the file may
    /// first grow by the size of its largest tree.
    @discardableResult
    public func compact(rebuildingTrees: Bool) throws -> CompactReport {
        guard rebuildingTrees else { return try compact() }
        if isReadOnly { throw StorageError.readOnly(path: path) }
        let before = try StorageError.wrap { try System.fileSize(fd) }
        let names = try read { try $0.treeNames() }
        for name in names {
            try write { txn in try txn.rebuildTree(name) }
        }
        var report = try compact()
        report.bytesBefore = before
        return report
    }
}
