/// Ordered iteration over one tree of a snapshot.
///
/// A cursor keeps the path from the root to its current leaf cell. Keys and values it returns
/// point into the database mapping and stay valid for as long as the transaction that created the
/// cursor is alive (for a write transaction: until the next change to the tree, or until it
/// commits or aborts).
///
/// ```swift
/// var cursor = try txn.cursor(over: tree)
/// try cursor.seek(to: Array("k100".utf8))
/// while let (key, value) = try cursor.next() { ... }
/// ```
///
/// ## Concurrency
/// Not `Sendable`; use it where its transaction is used.
public struct Cursor {
    let access: PageAccess
    let root: UInt32
    // The path: (node pointer, cell index) from the root to the leaf.
    var stack: [(UnsafeMutableRawPointer, Int)] = []
    var positioned = false
    /// Branches above every leaf, found by the first descent (all leaves are at one depth).
    var leafDepth = 0
    /// The leaf whose entries the cursor returns, once `next` has checked it (as a scan checks
    /// each leaf before reading it), and its last key: the next leaf's keys must be greater.
    var checkedLeaf: UnsafeMutableRawPointer? = nil
    var lastKey: UnsafeRawBufferPointer? = nil
    // Keeps the transaction (and so its mapping and pinned version) alive.
    let owner: AnyObject

    init(access: PageAccess, root: UInt32, owner: AnyObject) {
        self.access = access
        self.root = root
        self.owner = owner
        stack.reserveCapacity(8)
    }

    /// Positions the cursor before the first key >= `key` (or before the first key if nil);
    /// the next call to ``next()`` returns that entry.
    /// - Throws: `StorageError.corruptPage` when a page on the way is damaged, or the leaf it
    ///   reaches is not the one `key` routes to.
    public mutating func seek(to key: [UInt8]?) throws {
        stack.removeAll(keepingCapacity: true)
        positioned = true
        checkedLeaf = nil
        lastKey = nil
        guard root != 0 else { return }
        var p = try access.node(root)
        var low: UnsafeMutableRawPointer? = nil, lowCell = 0
        var high: UnsafeMutableRawPointer? = nil, highCell = 0
        while true {
            if Node.isLeaf(p) {
                try access.checkLeafBounds(p, isRoot: stack.isEmpty, low: low, lowCell, high: high, highCell)
                let i: Int
                if let key { i = try key.withUnsafeBytes { try access.leafSearch(p, $0).index } } else { i = 0 }
                leafDepth = stack.count
                stack.append((p, i))
                return
            }
            let i: Int
            if let key { i = try key.withUnsafeBytes { try access.branchSearch(p, $0) } } else { i = 0 }
            if i > 0 { (low, lowCell) = (p, i) }
            if i + 1 < Node.count(p) { (high, highCell) = (p, i + 1) }
            stack.append((p, i))
            p = try access.node(try Node.child(p, i, access))
            if stack.count > 64 { throw access.corrupt(root, "tree deeper than 64 levels") }
        }
    }

    /// Returns the entry at the cursor and advances, or nil at the end of the tree.
    /// - Throws: `StorageError.corruptPage` when a page on the way is damaged (each leaf is
    ///   checked as a scan checks it before any of its entries is returned: FORMAT.md, "What
    ///   reads check").
    public mutating func next() throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        if !positioned { try seek(to: nil) }
        while let (p, i) = stack.last {
            if Node.isLeaf(p) {
                if p != checkedLeaf {
                    lastKey = try access.checkScannedLeaf(p, after: lastKey, isRoot: leafDepth == 0)
                    try access.checkBelowNextSeparator(p, last: lastKey, path: stack, levels: stack.count - 1)
                    checkedLeaf = p
                }
                if i < Node.count(p) {
                    stack[stack.count - 1].1 = i + 1
                    return (try Node.leafKey(p, i, access), try access.value(p, i))
                }
            } else if i + 1 < Node.count(p) {
                // Move to the next child, then down to its leftmost leaf, as a scan walks
                // (`PageAccess.forEachLeaf`): branches checked in full once, the leaf above.
                stack[stack.count - 1].1 = i + 1
                var c = try access.nodeHeader(try Node.child(p, i + 1, access))
                while !Node.isLeaf(c) {
                    try access.checkOnce(PageAccess.number(c), c)
                    stack.append((c, 0))
                    c = try access.nodeHeader(try Node.child(c, 0, access))
                    if stack.count > 64 { throw access.corrupt(root, "tree deeper than 64 levels") }
                }
                guard stack.count == leafDepth else { throw access.wrongDepth(c, stack.count, leafDepth) }
                stack.append((c, 0))
                continue
            }
            stack.removeLast()
        }
        return nil
    }
}

extension PageAccess {
    /// Calls `body` for each entry with key >= `start`, in key order, until it returns false.
    /// A tight loop over leaves: the fast path for scans.
    func forEach(
        root: UInt32, from start: UnsafeRawBufferPointer?,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        try forEachLeaf(root: root, from: start) { leaf, first in
            for i in first..<leaf.count {
                // Inline values (the common case) take LeafView's one bounds check; the checked
                // path reads overflow runs and reports damage.
                let (k, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                if try !body(k, v) { return false }
            }
            return true
        }
    }
}
