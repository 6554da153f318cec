// Single-descent read-modify-write and greatest-key-at-most lookups: the primitives the object
// store uses to find and rewrite the cluster that holds an object (Docs/ObjectStore.md).

extension PageAccess {
    /// The entry with the greatest key <= `key` in the tree rooted at `root`, or nil if every key
    /// is greater. Keys and values point into the map.
    @inline(__always)
    func floor(
        root: UInt32, _ key: UnsafeRawBufferPointer
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        guard let (p, i) = try floorCell(root: root, key) else { return nil }
        return (try Node.leafKey(p, i, self), try value(p, i))
    }

    /// The leaf and cell index of the entry with the greatest key <= `key`, or nil if every key
    /// is greater. No allocation: the one branch the rare walk to the left needs (the deepest
    /// one whose chosen child had a left sibling) is kept in two variables.
    ///
    /// The answer is checked against the separators that led to it (a leaf from elsewhere would
    /// give a plausible wrong floor): an entry found in the leaf is >= the separator above the
    /// leaf's left neighbour; a leaf whose keys are all greater than `key` starts below the
    /// separator of its right neighbour; an entry found in the left neighbour's subtree is below
    /// the separator between the two.
    @inline(__always)
    func floorCell(root: UInt32, _ key: UnsafeRawBufferPointer) throws -> (leaf: UnsafeMutableRawPointer, index: Int)? {
        guard root != 0 else { return nil }
        var left: UnsafeMutableRawPointer? = nil
        var leftIndex = 0
        var depth = 0
        var p = try node(root)
        while !Node.isLeaf(p) {
            let i = try branchSearch(p, key)
            if i > 0 { (left, leftIndex) = (p, i - 1) }
            p = try node(try Node.child(p, i, self))
            depth += 1
            if depth > 64 { throw corrupt(root, "tree deeper than 64 levels") }
        }
        let (i, found) = try leafSearch(p, key)
        if found || i > 0 {
            let j = found ? i : i - 1
            // The separator of the subtree the descent took: every key of this leaf is >= it.
            if let left {
                guard compareKeys(try Node.leafKey(p, j, self), try Node.branchKey(left, leftIndex + 1, self)) >= 0
                else {
                    throw outOfBounds(p, "key \(j) lies below separator \(leftIndex + 1) of page \(Self.number(left))")
                }
            }
            return (p, j)
        }
        // Every key of this leaf is greater (a separator is only a prefix bound): the floor is
        // the last entry of the nearest subtree to the left. The leaf must still be the one the
        // key routes to: its keys start below the next separator (found by a second descent:
        // this path is rare, the object store's separators being its leaves' first keys).
        let high = try upperBound(root: root, key)
        try checkLeafBounds(p, isRoot: depth == 0, low: nil, 0, high: high?.0, high?.1 ?? 0)
        guard let left else { return nil }
        var c = try node(try Node.child(left, leftIndex, self))
        while !Node.isLeaf(c) {
            c = try node(try Node.child(c, Node.count(c) - 1, self))
            depth += 1
            if depth > 64 { throw corrupt(root, "tree deeper than 64 levels") }
        }
        let n = Node.count(c)
        guard n > 0 else { throw corrupt(Self.number(c), "an empty leaf inside a tree") }
        guard compareKeys(try Node.leafKey(c, n - 1, self), try Node.branchKey(left, leftIndex + 1, self)) < 0 else {
            throw outOfBounds(c, "last key is not below separator \(leftIndex + 1) of page \(Self.number(left))")
        }
        return (c, n - 1)
    }
}

extension PageAccess {
    /// The branch and cell whose key bounds from above the leaf `key` routes to in the tree at
    /// `root` (the next cell of the deepest branch on the path that has one), or nil. A second
    /// descent, for rare paths that need it.
    @inline(never)
    func upperBound(root: UInt32, _ key: UnsafeRawBufferPointer) throws -> (UnsafeMutableRawPointer, Int)? {
        var high: (UnsafeMutableRawPointer, Int)? = nil
        var p = try node(root)
        var depth = 0
        while !Node.isLeaf(p) {
            let i = try branchSearch(p, key)
            if i + 1 < Node.count(p) { high = (p, i + 1) }
            p = try node(try Node.child(p, i, self))
            depth += 1
            if depth > 64 { throw corrupt(root, "tree deeper than 64 levels") }
        }
        return high
    }
}

extension ReadTransaction {
    /// The entry with the greatest key <= `key`, or nil. Keys and values point into the map.
    public func floor(
        _ key: UnsafeRawBufferPointer, in tree: Tree
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        try access.floor(root: tree.root, key)
    }

    /// `floor(_:in:)`, with the key of the entry after the floor when it is in the same leaf
    /// (nil when the floor is its leaf's last entry): every key the floor entry stands for is
    /// below it. The object store guesses from it where in a cluster an object lies, before it
    /// reads the cluster, to ask for those lines early. Keys and values point into the map.
    package func floorAndNextKey(
        _ key: UnsafeRawBufferPointer, in tree: Tree
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, next: UnsafeRawBufferPointer?)? {
        guard let (p, i) = try access.floorCell(root: tree.root, key) else { return nil }
        let next = i + 1 < Node.count(p) ? try Node.leafKey(p, i + 1, access) : nil
        return (try Node.leafKey(p, i, access), try access.value(p, i), next)
    }
}

extension WriteTransaction {
    /// Writes the header and key of a leaf cell into `cellBuf` in front of an inline value of
    /// `length` bytes already at `cellBuf + leafHeader + key.count` (FORMAT.md, "Leaf cell").
    func setLeafCellHeader(_ key: UnsafeRawBufferPointer, length: Int) {
        cellBuf.setU16(0, UInt16(key.count))
        cellBuf.setU32(2, UInt32(length))
        if key.count > 0 { moveBytes(cellBuf + CellLayout.leafHeader, key.baseAddress!, key.count) }
    }

    /// Replaces the value of leaf cell `i` of `p` (key `key`) with the inline value of `length`
    /// bytes that a `modify` body wrote at `cellBuf + leafHeader + key.count`: over the old bytes
    /// when the length is the same, else as a new cell where the old one stands
    /// (`replaceCellInPlace`), or removed and inserted (compacting or splitting the page).
    func rewriteLeafValue(
        _ path: inout [PathEntry], _ n: UInt32, _ p: UnsafeMutableRawPointer, _ i: Int,
        _ key: UnsafeRawBufferPointer, length: Int, rightmost: Bool, _ t: inout TreeState
    ) throws {
        let valueAt = CellLayout.leafHeader + key.count
        let stored = try Node.leafValue(p, i, access)
        if case .inline(let ov) = stored, ov.count == length {
            if length > 0 { moveBytes(UnsafeMutableRawPointer(mutating: ov.baseAddress!), cellBuf + valueAt, length) }
            return
        }
        if case .overflow(let first, _) = stored {
            freePage(first, run: try access.overflowRun(first: first))
        }
        setLeafCellHeader(key, length: length)
        if replaceCellInPlace(p, i, cellBuf, valueAt + length, leaf: true) { return }
        removeCell(p, i, leaf: true)
        try insertCell(
            &path, n, p, i, cellBuf, valueAt + length, leaf: true, append: rightmost && i == Node.count(p), &t)
    }

    /// The entry with the greatest key <= `key` in the transaction's current state, or nil.
    /// Valid until the tree is next changed.
    /// Remembers where the entry is (`FloorHint`), so that a `mutateFloorInPlace` of the same key
    /// right after it need not descend again.
    public func floor(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        try checkOpen()
        let root = trees[tree.index].root
        guard let (p, i) = try access.floorCell(root: root, key) else { return nil }
        let entry = (key: try Node.leafKey(p, i, access), value: try access.value(p, i))
        floorHint = FloorHint(key, tree: tree.index, root: root, stamp: changeStamp, leaf: p, index: i)
        return entry
    }

    /// The largest value `modify` can write for a key of `keyLength` bytes without moving it to
    /// an overflow run.
    package func inlineValueCapacity(keyLength: Int) -> Int {
        db.maxInlineCell - CellLayout.leafHeader - keyLength
    }

    /// Reads and rewrites the value under `key` with one descent of the tree.
    ///
    /// `body` gets the current value (nil if the key is absent) and a buffer of
    /// ``inlineValueCapacity(keyLength:)`` bytes, writes the new value into the buffer and returns
    /// its length, or nil to leave the tree unchanged. The old value may be read while writing the
    /// buffer (they never overlap). A new value of the old length is written in place; otherwise
    /// the entry is replaced.
    /// - Returns: what `body` returned.
    @discardableResult
    package func modify(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle,
        _ body: (UnsafeRawBufferPointer?, UnsafeMutableRawBufferPointer) throws -> Int?
    ) throws -> Int? {
        try beginChange()
        // A `floor` inside `body` must not leave a hint for the cells this change then moves.
        defer { changeStamp &+= 1 }
        guard key.count <= db.maxKeySize else { throw StorageError.keyTooLarge(size: key.count, limit: db.maxKeySize) }
        let capacity = inlineValueCapacity(keyLength: key.count)
        // The body writes the value where it sits in a new leaf cell (see `rewriteLeafValue`).
        let buffer = UnsafeMutableRawBufferPointer(start: cellBuf + CellLayout.leafHeader + key.count, count: capacity)
        var t = trees[tree.index]
        defer { trees[tree.index] = t }
        if t.root == 0 {
            guard let length = try body(nil, buffer) else { return nil }
            if t.holdsAreas { try countEdit(from: nil, to: UnsafeRawBufferPointer(rebasing: buffer[0..<length])) }
            _ = try put(key, UnsafeRawBufferPointer(rebasing: buffer[0..<length]), &t)
            t.dirty = true
            return length
        }
        // Peek first so that a body that changes nothing copies no pages.
        let existing = try access.get(root: t.root, key)
        // Optional, not an empty array: a value without references then allocates nothing.
        let old = t.holdsAreas ? try referencesIfAny(existing) : nil
        guard let length = try body(existing, buffer) else { return nil }
        precondition(
            length >= 0 && length <= capacity, "modify: the new value's length \(length) is outside the buffer")
        if t.holdsAreas { try countEdit(from: old, to: UnsafeRawBufferPointer(rebasing: buffer[0..<length])) }
        t.dirty = true
        try withPath { path in
            let (n, p, rightmost) = try descendWritable(key, &t, &path)
            let (i, found) = try access.leafSearch(p, key)
            if found {
                try rewriteLeafValue(&path, n, p, i, key, length: length, rightmost: rightmost, &t)
            } else {
                setLeafCellHeader(key, length: length)
                try insertCell(
                    &path, n, p, i, cellBuf, CellLayout.leafHeader + key.count + length, leaf: true,
                    append: rightmost && i == Node.count(p), &t)
                t.count += 1
            }
        }
        return length
    }

    /// Reads and rewrites the entry with the greatest key <= `key` with one descent, when that
    /// entry is in the leaf `key` descends to (the object store's insert into the cluster that
    /// should hold an object).
    ///
    /// `body` gets the entry's key, its value, the same value as writable bytes when it is
    /// inline (the leaf is already this transaction's copy, so it may edit them in place without
    /// changing their length), and a buffer of `inlineValueCapacity` bytes for the entry's key
    /// length. It returns what it did: `.unchanged`, `.editedInPlace`, or `.replaced(length)`
    /// after writing a new value of `length` bytes into the buffer. The entry keeps its key. The
    /// path to the leaf is made writable either way.
    /// - Returns: `found` false when the floor entry is not in that leaf (every key is greater,
    ///   or it is the last entry of a leaf to the left): `body` was not called, use `floor` and
    ///   `modify`. Otherwise the value's length after the body (nil when it was unchanged).
    @discardableResult
    package func modifyFloor(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle, counting: Bool = true,
        _ body: (
            UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer?,
            UnsafeMutableRawBufferPointer
        ) throws -> FloorEdit
    ) throws -> (found: Bool, length: Int?) {
        // A tree that holds areas counts the references its values gain and lose (out of line);
        // other trees take the path below untouched (a flag test inside it made the compiler
        // outline its closure: +60 instructions an insert of `strata-bench w1`, callgrind).
        if counting, trees[tree.index].holdsAreas { return try modifyFloorCounting(key, in: tree, body) }
        try beginChange()
        defer { changeStamp &+= 1 }
        var t = trees[tree.index]
        defer { trees[tree.index] = t }
        guard t.root != 0 else { return (false, nil) }
        return try withPath { path in
            let (n, p, rightmost) = try descendWritable(key, &t, &path)
            t.dirty = true
            let (i0, exact) = try access.leafSearch(p, key)
            let i = exact ? i0 : i0 - 1
            guard i >= 0 else { return (false, nil) }
            try checkFloorEntry(path, p, i)
            // The entry's key, copied (replacing the cell may reuse its bytes): on the stack when
            // short, as object-store keys are.
            let ek = try Node.leafKey(p, i, access)
            // `t` and `path` are passed, not captured: a local function that captures a variable
            // and is called from a closure makes every access to it a run-time exclusivity check
            // (80 instructions a call; callgrind, `strata-bench w1` bulk_insert).
            func rewrite(
                _ k: UnsafeRawBufferPointer, _ t: inout TreeState, _ path: inout [PathEntry]
            ) throws -> (found: Bool, length: Int?) {
                let capacity = inlineValueCapacity(keyLength: k.count)
                // The body writes the value where it sits in a new leaf cell, so a cell that
                // changes size is not copied once more to be built (a cluster is up to 2 KiB).
                let buffer = UnsafeMutableRawBufferPointer(
                    start: cellBuf + CellLayout.leafHeader + k.count, count: capacity)
                let stored = try Node.leafValue(p, i, access)
                let old: UnsafeRawBufferPointer
                var inPlace: UnsafeMutableRawBufferPointer? = nil
                switch stored {
                case .inline(let v):
                    old = v
                    inPlace = UnsafeMutableRawBufferPointer(mutating: v)
                case .overflow:
                    old = try access.value(p, i)
                }
                switch try body(k, old, inPlace, buffer) {
                case .unchanged:
                    return (true, nil)
                case .editedInPlace:
                    precondition(inPlace != nil, "modifyFloor: an overflow value cannot be edited in place")
                    return (true, old.count)
                case .replaced(let length):
                    precondition(
                        length >= 0 && length <= capacity,
                        "modifyFloor: the new value's length \(length) is outside the buffer")
                    try rewriteLeafValue(&path, n, p, i, k, length: length, rightmost: rightmost, &t)
                    return (true, length)
                }
            }
            if ek.count <= 16 {
                var stack: (UInt64, UInt64) = (0, 0)
                return try withUnsafeMutableBytes(of: &stack) { raw in
                    raw.copyMemory(from: ek)
                    return try rewrite(UnsafeRawBufferPointer(rebasing: raw[0..<ek.count]), &t, &path)
                }
            }
            return try Array(ek).withUnsafeBytes { try rewrite($0, &t, &path) }
        }
    }

    /// `modifyFloor` in a tree that holds areas: counts the references the edited value gains
    /// and loses.
    @inline(never)
    func modifyFloorCounting(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle,
        _ body: (
            UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeMutableRawBufferPointer?,
            UnsafeMutableRawBufferPointer
        ) throws -> FloorEdit
    ) throws -> (found: Bool, length: Int?) {
        try modifyFloor(key, in: tree, counting: false) { k, old, inPlace, buffer in
            let refs = try self.referencesIfAny(old)
            let edit = try body(k, old, inPlace, buffer)
            switch edit {
            case .unchanged: if inPlace != nil { try self.countEdit(from: refs, to: old) }
            case .editedInPlace: try self.countEdit(from: refs, to: old)
            case .replaced(let length):
                try self.countEdit(from: refs, to: UnsafeRawBufferPointer(rebasing: buffer[0..<length]))
            }
            return edit
        }
    }

    /// Gives `body` write access, in place, to the value of the entry with the greatest key <=
    /// `key`, with one descent, when that entry is in the leaf `key` descends to and its value is
    /// inline (the object store's in-place update of a value in a cluster). The path is made
    /// writable either way. With no descent when `floor(key)` was the last call on the tree and
    /// found the entry in a leaf this transaction had already copied.
    /// - Returns: what `body` returned, or nil when it was not called: no such entry in that
    ///   leaf, or an overflow value; use `floor` and `mutateInPlace` then.
    @discardableResult
    package func mutateFloorInPlace<R>(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle,
        _ body: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R? {
        // Right after `floor` found this key's entry in a leaf this transaction already copied
        // (so its whole path is writable), with no change to the tree since: write it there.
        if !ended, let h = floorHint, h.stamp == changeStamp, h.tree == tree.index, h.matches(key),
            trees[tree.index].root == h.root, h.leaf.u64(PageHeader.version) == v
        {
            if case .inline(let value) = try Node.leafValue(h.leaf, h.index, access) {
                return try editCounting(value, in: tree, body)
            }
        }
        try beginChange()
        var t = trees[tree.index]
        defer { trees[tree.index] = t }
        guard t.root != 0 else { return nil }
        let found = try withPath { path -> (UnsafeMutableRawPointer, Int)? in
            let p = try descendWritable(key, &t, &path).1
            t.dirty = true
            let (i0, exact) = try access.leafSearch(p, key)
            let i = exact ? i0 : i0 - 1
            guard i >= 0 else { return nil }
            try checkFloorEntry(path, p, i)
            return (p, i)
        }
        guard let (p, i) = found, case .inline(let v) = try Node.leafValue(p, i, access) else { return nil }
        return try editCounting(v, in: tree, body)
    }

    /// Calls `body` to edit `value` in place; in a tree that holds areas, counts a change of the
    /// references the value begins with.
    @inline(__always)
    func editCounting<R>(
        _ value: UnsafeRawBufferPointer, in tree: TreeHandle, _ body: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R {
        guard trees[tree.index].holdsAreas else { return try body(UnsafeMutableRawBufferPointer(mutating: value)) }
        let refs = try referencesIfAny(value)
        let result = try body(UnsafeMutableRawBufferPointer(mutating: value))
        try countEdit(from: refs, to: value)
        return result
    }

    /// Checks that entry `i` of leaf `p`, which `path` leads to, is >= the separator of the
    /// subtree the descent took (as `floorCell` does for reads): a leaf from elsewhere must not
    /// hand a wrong entry to a read-modify-write.
    @inline(__always)
    func checkFloorEntry(_ path: [PathEntry], _ p: UnsafeRawPointer, _ i: Int) throws {
        var k = path.count - 1
        while k >= 0 && path[k].index == 0 { k -= 1 }
        guard k >= 0 else { return }
        let e = path[k]
        guard compareKeys(try Node.leafKey(p, i, access), try Node.branchKey(e.ptr, e.index, access)) >= 0 else {
            // Named by the page the descent copied it from (the copy is this transaction's).
            throw StorageError.corruptPage(
                path: access.path, page: descentSource,
                reason:
                    "the leaf's key \(i) lies below the separator that leads to it: a page from elsewhere in the tree or from another tree, or damaged keys"
            )
        }
    }

    /// Gives `body` write access to the bytes of the value under `key`, in place (copying the
    /// page that holds them once per transaction). For same-size edits such as updating one
    /// field of a fixed-width record.
    /// - Parameter checkPresence: look the key up first, so an absent key changes nothing. A
    ///   caller that knows the key is present passes false and saves that descent (for an
    ///   absent key the path is then copied for nothing).
    /// - Returns: what `body` returned, or nil if the key is absent (then `body` is not called).
    @discardableResult
    package func mutateInPlace<R>(
        _ key: UnsafeRawBufferPointer, in tree: TreeHandle, checkPresence: Bool = true,
        _ body: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R? {
        try beginChange()
        var t = trees[tree.index]
        defer { trees[tree.index] = t }
        guard t.root != 0 else { return nil }
        if checkPresence, try access.get(root: t.root, key) == nil { return nil }
        let p = try withPath { path in try descendWritable(key, &t, &path).1 }
        // The descent copied the path (its old pages are freed): the tree changed even when the
        // key turns out to be absent, so the commit must record the new root.
        t.dirty = true
        let (i, found) = try access.leafSearch(p, key)
        guard found else { return nil }
        switch try Node.leafValue(p, i, access) {
        case .inline(let v):
            return try editCounting(v, in: tree, body)
        case .overflow(let first, let length):
            // Copy the run once per transaction, then edit it in place.
            var run = first
            if try access.page(first).u64(PageHeader.version) != v {
                run = try moveOverflowRun(ofCell: i, in: p, first: first, length: length).first
            }
            let bytes = UnsafeMutableRawBufferPointer(start: try access.page(run) + PageHeader.size, count: length)
            let result = try body(bytes)
            // A value in an overflow run of a tree that holds areas refers to no area, and must not start to.
            if trees[tree.index].holdsAreas, length >= 1, bytes.load(as: UInt8.self) != 0 {
                throw StorageError.corruptPage(
                    path: access.path, page: run,
                    reason:
                        "an edit gave a value in an overflow run area references; only values in a leaf may have them")
            }
            return result
        }
    }

    /// Descends to the leaf for `key`, making every node on the way writable (copy-on-write) and
    /// recording the path. Returns the leaf and whether the path ran along the right edge.
    func descendWritable(
        _ key: UnsafeRawBufferPointer, _ t: inout TreeState, _ path: inout [PathEntry]
    ) throws -> (UInt32, UnsafeMutableRawPointer, Bool) {
        // One call of `writable` for the root and every level below it, so that it is inlined
        // once (two call sites left one out of line: callgrind, about 50 instructions a put).
        var source = t.root
        var parent: PathEntry? = nil
        var rightmost = true
        while true {
            descentSource = source
            let (n, p) = try writable(source)
            if let (pn, pp, i) = parent {
                if n != source { pp.setU32(Node.slot(pp, i), n) }
                path.append((pn, pp, i))
                if path.count > 64 { throw access.corrupt(t.root, "tree deeper than 64 levels") }
            } else {
                t.root = n
            }
            if Node.isLeaf(p) { return (n, p, rightmost) }
            let i = try access.branchSearch(p, key)
            if i != Node.count(p) - 1 { rightmost = false }
            source = try Node.child(p, i, access)
            parent = (n, p, i)
        }
    }
}
