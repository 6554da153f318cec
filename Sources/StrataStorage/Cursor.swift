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
    public mutating func seek(to key: [UInt8]?) throws {
        stack.removeAll(keepingCapacity: true)
        positioned = true
        guard root != 0 else { return }
        var p = try access.node(root)
        while true {
            if Node.isLeaf(p) {
                let i: Int
                if let key { i = try key.withUnsafeBytes { try access.leafSearch(p, $0).index } } else { i = 0 }
                stack.append((p, i))
                return
            }
            let i: Int
            if let key { i = try key.withUnsafeBytes { try access.branchSearch(p, $0) } } else { i = 0 }
            stack.append((p, i))
            p = try access.node(try Node.child(p, i, access))
            if stack.count > 64 { throw access.corrupt(root, "tree deeper than 64 levels") }
        }
    }

    /// Returns the entry at the cursor and advances, or nil at the end of the tree.
    public mutating func next() throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        if !positioned { try seek(to: nil) }
        while let (p, i) = stack.last {
            if Node.isLeaf(p) {
                if i < Node.count(p) {
                    stack[stack.count - 1].1 = i + 1
                    return (try Node.leafKey(p, i, access), try access.value(p, i))
                }
            } else if i + 1 < Node.count(p) {
                // Move to the next child, then down to its leftmost leaf.
                stack[stack.count - 1].1 = i + 1
                var c = try access.node(try Node.child(p, i + 1, access))
                while !Node.isLeaf(c) {
                    stack.append((c, 0))
                    c = try access.node(try Node.child(c, 0, access))
                    if stack.count > 64 { throw access.corrupt(root, "tree deeper than 64 levels") }
                }
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
    func forEach(root: UInt32, from start: UnsafeRawBufferPointer?, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool) throws {
        guard root != 0 else { return }
        var stack: [(UnsafeMutableRawPointer, Int)] = []
        stack.reserveCapacity(8)
        var p = try node(root)
        while !Node.isLeaf(p) {
            let i = try start.map { try branchSearch(p, $0) } ?? 0
            stack.append((p, i))
            p = try node(try Node.child(p, i, self))
            if stack.count > 64 { throw corrupt(root, "tree deeper than 64 levels") }
        }
        var i = try start.map { try leafSearch(p, $0).index } ?? 0
        while true {
            let n = Node.count(p)
            while i < n {
                // Inline values (the common case) are decoded here, with one bounds check for
                // key and value together: the general `value` path (an enum, a call) cost about
                // a tenth of a row scan's instructions.
                let off = try Node.cell(p, i, self)
                let klen = Int(p.u16(off))
                let word = p.u32(off + 2)
                let body0 = off + CellLayout.leafHeader + klen
                let k = UnsafeRawBufferPointer(start: p + off + CellLayout.leafHeader, count: klen)
                let v: UnsafeRawBufferPointer
                if word & CellLayout.overflowFlag == 0 {
                    guard body0 + Int(word) <= pageSize else {
                        throw corrupt(p.u32(PageHeader.pageNumber), "value of cell \(i) runs past the page")
                    }
                    v = UnsafeRawBufferPointer(start: p + body0, count: Int(word))
                } else {
                    guard body0 <= pageSize else { throw corrupt(p.u32(PageHeader.pageNumber), "key of cell \(i) runs past the page") }
                    v = try value(p, i)
                }
                if try !body(k, v) { return }
                i += 1
            }
            // Climb to the next subtree.
            var advanced = false
            while let (b, j) = stack.last {
                if j + 1 < Node.count(b) {
                    stack[stack.count - 1].1 = j + 1
                    var c = try node(try Node.child(b, j + 1, self))
                    while !Node.isLeaf(c) {
                        stack.append((c, 0))
                        c = try node(try Node.child(c, 0, self))
                        if stack.count > 64 { throw corrupt(root, "tree deeper than 64 levels") }
                    }
                    p = c
                    i = 0
                    advanced = true
                    break
                }
                stack.removeLast()
            }
            if !advanced { return }
        }
    }
}
