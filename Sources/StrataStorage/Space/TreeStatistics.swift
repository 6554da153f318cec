/// The pages one tree of one version occupies (``ReadTransaction/treeStatistics(progress:)``).
///
/// ## Concurrency
/// A value type; `Sendable`.
public struct TreeStatistics: Sendable, Equatable {
    /// The tree's name in the catalog.
    public var name: String
    /// Entries (key-value pairs).
    public var entries: UInt64
    /// Levels: 0 for an empty tree, 1 for a single leaf.
    public var depth: Int
    /// Branch (interior) pages.
    public var branchPages: Int
    /// Leaf pages.
    public var leafPages: Int
    /// Pages of overflow runs (values too large for a leaf).
    public var overflowPages: Int

    /// Every page of the tree.
    public var pages: Int { branchPages + leafPages + overflowPages }
}

extension ReadTransaction {
    /// The pages of every tree of this version (the catalog itself not included), in catalog
    /// order. Reads every node page once; values are not read, only overflow runs' headers.
    /// Area pages (FORMAT.md, "Area pages") are shared by trees and not counted here:
    /// ``VerifyReport/areaPages`` counts them.
    /// - Parameter progress: called after each tree with (trees done, trees in all).
    /// - Throws: ``StorageError/corruptPage(path:page:reason:)`` for a damaged page.
    public func treeStatistics(progress: ((Int, Int) -> Void)? = nil) throws -> [TreeStatistics] {
        let names = try treeNames()
        var out: [TreeStatistics] = []
        for (i, name) in names.enumerated() {
            guard let tree = try tree(named: name) else { continue }
            var s = TreeStatistics(
                name: name, entries: tree.count, depth: 0, branchPages: 0, leafPages: 0, overflowPages: 0)
            if tree.root != 0 { s.depth = try count(tree.root, level: 1, &s) }
            out.append(s)
            progress?(i + 1, names.count)
        }
        return out
    }

    /// Adds the pages of the subtree at `n` to `s`; returns its depth.
    private func count(_ n: UInt32, level: Int, _ s: inout TreeStatistics) throws -> Int {
        guard level <= 64 else { throw access.corrupt(n, "tree deeper than 64 levels") }
        let p = try access.node(n)
        let cells = Node.count(p)
        if Node.isLeaf(p) {
            s.leafPages += 1
            for i in 0..<cells {
                if case .overflow(let first, _) = try Node.leafValue(p, i, access) {
                    s.overflowPages += try access.overflowRun(first: first)
                }
            }
            return level
        }
        s.branchPages += 1
        var depth = level
        for i in 0..<cells {
            depth = max(depth, try count(try Node.child(p, i, access), level: level + 1, &s))
        }
        return depth
    }
}
