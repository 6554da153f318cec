// Areas (FORMAT.md, "Area pages"): byte ranges of area pages that the values of a tree that
// holds areas refer to. A transaction places the areas it allocates in area pages of its own,
// one after another; a committed area is never changed (copy-on-write, like every page): a caller
// that changes one allocates a new area and stores the value with the new reference. The
// area-counts tree records, per area page, how many areas and bytes of it the version's values
// refer to. The engine keeps those counts itself, from the references it sees stored and removed
// (every change of a value of a tree that holds areas: put, insert, delete, drop, and the edits of
// `modify`, `modifyFloor`, `mutateInPlace`, `mutateFloorInPlace`), so they cannot drift from what
// the values say; a page whose count reaches zero is freed like any page, and an area allocated
// but never stored is gone at the commit.

extension WriteTransaction {
    /// Allocates an area of `length` bytes (1 ... `AreaLayout.largest`) in an area page of this
    /// transaction and returns its reference and its bytes to fill (their content is
    /// unspecified). The pointer is valid until the next change of this transaction (an
    /// allocation included) or its end; ``writableArea(_:)`` finds the bytes again. The area
    /// lives once a value of a tree that holds areas begins with its reference, and as long as
    /// one does; an area no value refers to at the commit is not kept.
    /// - Throws: ``StorageError/valueTooLarge(size:limit:)`` for a length a page cannot hold;
    ///   ``StorageError`` for a failed allocation.
    package func allocateArea(length: Int) throws -> (AreaReference, UnsafeMutableRawPointer) {
        try beginChange()
        let largest = AreaLayout.largest(pageSize: pageSize)
        guard length >= 1, length <= largest else {
            throw StorageError.valueTooLarge(size: length, limit: largest)
        }
        var n = currentAreaPage
        var page: UnsafeMutableRawPointer
        if n != 0, case let q = access.pointer(n),
            AreaLayout.aligned(Int(q.u16(AreaLayout.used))) + length <= pageSize, q.u16(AreaLayout.areaCount) < .max
        {
            page = q
        } else {
            (n, page) = try allocPage(.area)
            page.setU16(AreaLayout.used, UInt16(AreaLayout.first))
            currentAreaPage = n
            ownAreaPages.append(n)
        }
        let offset = AreaLayout.aligned(Int(page.u16(AreaLayout.used)))
        page.setU16(AreaLayout.used, UInt16(offset + length))
        page.setU16(AreaLayout.areaCount, page.u16(AreaLayout.areaCount) + 1)
        return (AreaReference(page: n, offset: UInt16(offset), length: UInt16(length)), page + offset)
    }

    /// The bytes of area `ref` as this transaction sees them (checked like a reader's
    /// ``ReadTransaction/area(_:)``); valid until the next change or the transaction's end.
    /// - Throws: ``StorageError/corruptPage(path:page:reason:)`` when `ref` does not name an area
    ///   of an area page this transaction may see.
    package func area(_ ref: AreaReference) throws -> UnsafeRawBufferPointer {
        try checkOpen()
        return try access.area(ref)
    }

    /// The bytes of area `ref` to change in place, when this transaction allocated the area's
    /// page (no committed version can see it); nil for an area of a committed version, which
    /// must be copied: allocate a new one and store the value with its reference.
    package func writableArea(_ ref: AreaReference) throws -> UnsafeMutableRawPointer? {
        let bytes = try area(ref)
        guard isOwnAreaPage(ref.page) else { return nil }
        return UnsafeMutableRawPointer(mutating: bytes.baseAddress!)
    }

    /// Lengthens or shortens area `ref` in place to `length` bytes, when it is the last area of
    /// an area page of this transaction and the page has room; returns its new reference (same
    /// page and offset), or nil when it cannot (allocate a new area instead). A value that
    /// refers to the area must be stored again with the new reference (its length changed).
    package func resizeArea(_ ref: AreaReference, to length: Int) throws -> AreaReference? {
        try beginChange()
        _ = try access.area(ref)
        guard length >= 1, isOwnAreaPage(ref.page) else { return nil }
        let p = access.pointer(ref.page)
        guard Int(ref.offset) + Int(ref.length) == Int(p.u16(AreaLayout.used)),
            Int(ref.offset) + length <= pageSize
        else { return nil }
        p.setU16(AreaLayout.used, UInt16(Int(ref.offset) + length))
        return AreaReference(page: ref.page, offset: ref.offset, length: UInt16(length))
    }

    /// Whether this transaction allocated area page `n` (so it may change it in place).
    func isOwnAreaPage(_ n: UInt32) -> Bool {
        access.pointer(n).u64(PageHeader.version) == v && dirty.contains(n)
    }

    // MARK: Counting references

    /// The area references `value` begins with (none for nil), checked to name areas this
    /// transaction can see.
    /// - Throws: ``StorageError/corruptPage(path:page:reason:)`` for a value too short for its
    ///   references, or a reference that names no area.
    func areaReferences(_ value: UnsafeRawBufferPointer?) throws -> [AreaReference] {
        guard let value else { return [] }
        guard let n = AreaPrefix.count(of: value) else { throw prefixTooShort(0) }
        return try (0..<n).map { i in
            let r = AreaPrefix.reference(i, of: value)
            _ = try access.area(r)
            return r
        }
    }

    /// A value of a tree that holds areas too short for the area prefix it must begin with
    /// (found below page `n`, 0 when not known).
    @inline(never)
    func prefixTooShort(_ n: UInt32) -> StorageError {
        access.corrupt(n, "a value of a tree that holds areas is too short for its area references")
    }

    /// Records that a value stopped referring to `old` and refers to `new` now.
    func countReferences(removed old: [AreaReference], stored new: [AreaReference]) {
        for r in old {
            areaChanges[r.page, default: AreaCountChange()].areas -= 1
            areaChanges[r.page, default: AreaCountChange()].bytes -= Int(r.length)
        }
        for r in new {
            areaChanges[r.page, default: AreaCountChange()].areas += 1
            areaChanges[r.page, default: AreaCountChange()].bytes += Int(r.length)
        }
    }

    /// `put` into a tree that holds areas: counts the references the value stores and uncounts
    /// those of the value it replaces.
    func putCounting(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, in tree: TreeHandle) throws -> Bool
    {
        try checkInlineForAreas(key, value)
        let old = try referencesIfAny(try access.get(root: trees[tree.index].root, key))
        let new = try referencesIfAny(value)
        let inserted = try put(key, value, &trees[tree.index])
        trees[tree.index].dirty = true
        if old != nil || new != nil { countReferences(removed: old ?? [], stored: new ?? []) }
        return inserted
    }

    /// Refuses a value too large to stay in its leaf that begins with references: such a value
    /// goes to an overflow run, and the engine reads references only in leaves (a large value
    /// of a tree that holds areas begins with a count of 0).
    func checkInlineForAreas(_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws {
        let limit = inlineValueCapacity(keyLength: key.count)
        guard value.count <= limit || (value.count >= 1 && value.load(as: UInt8.self) == 0) else {
            throw StorageError.valueTooLarge(size: value.count, limit: limit)
        }
    }

    /// The references `value` begins with, or nil when it begins with none: the common case of
    /// a value of a tree that holds areas costs a load and no array.
    /// - Throws: as `areaReferences`, and for an empty value.
    @inline(__always)
    func referencesIfAny(_ value: UnsafeRawBufferPointer?) throws -> [AreaReference]? {
        guard let value else { return nil }
        guard value.count >= 1 else { throw prefixTooShort(0) }
        if value.load(as: UInt8.self) == 0 { return nil }
        return try areaReferences(value)
    }

    /// Counts the references of a value changed in place or rewritten: `old` before the change
    /// (nil: none), `value` after.
    @inline(__always)
    func countEdit(from old: [AreaReference]?, to value: UnsafeRawBufferPointer) throws {
        if old == nil, value.count >= 1, value.load(as: UInt8.self) == 0 { return }
        try countChangedReferences(from: old ?? [], to: value)
    }

    @inline(never)
    func countChangedReferences(from old: [AreaReference], to value: UnsafeRawBufferPointer) throws {
        let new = try areaReferences(value)
        if new != old { countReferences(removed: old, stored: new) }
    }

    /// Uncounts every area reference of the values of the tree at `root` (the tree is being dropped).
    func uncountAreas(of root: UInt32) throws {
        // The references are only uncounted, not read through (`areaReferences` checks each
        // area): the values are going away, and a reference to a page the counts do not list
        // takes that page's count below zero, which fails the commit as damaged counts.
        var refs: [AreaReference] = []
        try access.forEach(root: root, from: nil) { _, value in
            guard let n = AreaPrefix.count(of: value) else { throw prefixTooShort(root) }
            for i in 0..<n { refs.append(AreaPrefix.reference(i, of: value)) }
            return true
        }
        countReferences(removed: refs, stored: [])
    }

    /// Moves every area page at or above `target` into a lower free page (`compact()`): the
    /// page is copied whole, the references to its areas in the values of every tree that holds
    /// areas are repointed (their leaves copied, copy-on-write), and its entry in the area-counts
    /// tree moves with it. Returns the number of pages moved.
    func relocateAreaPages(below target: UInt32) throws -> Int {
        guard let counts = try areaCountsTree(create: false) else { return 0 }
        var high: [(page: UInt32, value: [UInt8])] = []
        let start = AreaCountsLayout.key(target)
        try forEach(in: counts, from: start) { k, value in
            guard let n = AreaCountsLayout.page(k) else {
                throw access.corrupt(trees[counts.index].root, "a key of the area-counts tree is not 4 bytes")
            }
            high.append((n, Array(value)))
            return true
        }
        guard !high.isEmpty else { return 0 }
        var movedTo: [UInt32: UInt32] = [:]
        for (n, value) in high {
            let old = try access.page(n)
            guard old.u8(PageHeader.type) == PageType.area.rawValue else {
                throw access.corrupt(n, "the area-counts tree lists it, but it is not an area page")
            }
            let (m, q) = try allocPage(.area, young: false)
            moveBytes(q, old, pageSize)
            q.setU32(PageHeader.pageNumber, m)
            q.setU64(PageHeader.version, v)
            movedTo[n] = m
            freePage(n)
            _ = try delete(AreaCountsLayout.key(n), in: counts)
            try put(AreaCountsLayout.key(m), value, in: counts)
        }
        for name in try Catalog.names(root: catalog.root, access) {
            let h = try openTree(name)
            guard trees[h.index].holdsAreas else { continue }
            let old = trees[h.index].root
            trees[h.index].root = try repointAreas(old, movedTo)
            if trees[h.index].root != old { trees[h.index].dirty = true }
        }
        return high.count
    }

    /// Repoints the area references of the values below node `n` that name a page of `movedTo`;
    /// returns the node's (possibly new) page.
    private func repointAreas(_ n: UInt32, _ movedTo: [UInt32: UInt32]) throws -> UInt32 {
        var copied = 0
        return try rewriteSubtree(
            n, moving: { _ in false }, moved: &copied,
            leafCells: { p, page in
                var cells: [Int] = []
                for i in 0..<Node.count(p) {
                    // A value in an overflow run refers to no area (`checkInlineForAreas`).
                    guard case .inline(let value) = try Node.leafValue(p, i, access) else { continue }
                    guard let refs = AreaPrefix.count(of: value) else {
                        throw access.corrupt(
                            page, "value \(i) of a tree that holds areas does not begin with area references")
                    }
                    for r in 0..<refs where movedTo[AreaPrefix.reference(r, of: value).page] != nil {
                        cells.append(i)
                        break
                    }
                }
                return cells
            },
            editLeaf: { q, cells in
                for i in cells {
                    guard case .inline(let value) = try Node.leafValue(q, i, access),
                        let refs = AreaPrefix.count(of: value)
                    else { continue }
                    let base = UnsafeMutableRawPointer(mutating: value.baseAddress!) + 1
                    for r in 0..<refs {
                        let ref = AreaReference(at: base + r * AreaReference.size)
                        if let to = movedTo[ref.page] {
                            AreaReference(page: to, offset: ref.offset, length: ref.length).store(
                                at: base + r * AreaReference.size)
                        }
                    }
                }
                return 0
            })
    }

    /// Opens (or creates) the area-counts tree.
    func areaCountsTree(create: Bool) throws -> TreeHandle? {
        if let i = treeIndex[Catalog.areaCountsName] { return TreeHandle(index: i) }
        let existing = try Catalog.lookup(Catalog.areaCountsName, root: catalog.root, access)
        guard existing != nil || create else { return nil }
        trees.append(
            TreeState(
                name: Catalog.areaCountsName, root: existing?.root ?? 0, count: existing?.count ?? 0,
                dirty: existing == nil))
        treeIndex[Catalog.areaCountsName] = trees.count - 1
        return TreeHandle(index: trees.count - 1)
    }

    /// The first commit step: applies the changes of the references this transaction's values
    /// stored and removed to the area-counts tree, and frees each area page no value refers to
    /// any more (and each one it allocated that no value refers to).
    func recordAreaCounts() throws {
        guard !areaChanges.isEmpty || !ownAreaPages.isEmpty else { return }
        let own = Set(ownAreaPages)
        for n in ownAreaPages where areaChanges[n] == nil { areaChanges[n] = AreaCountChange() }
        let changes = areaChanges.sorted { $0.key < $1.key }
        areaChanges = [:]
        ownAreaPages = []
        currentAreaPage = 0
        guard let counts = try areaCountsTree(create: true) else { return }
        var value = [UInt8](repeating: 0, count: AreaCountsLayout.valueSize)
        for (page, change) in changes {
            let key = AreaCountsLayout.key(page)
            var old = (areas: 0, bytes: 0)
            if let stored = try get(key, in: counts) {
                guard let counted = AreaCountsLayout.decode(stored) else {
                    throw access.corrupt(page, "its entry in the area-counts tree has \(stored.count) bytes, not 8")
                }
                old = counted
            }
            // A committed page whose references were removed and stored again keeps its count.
            if change.areas == 0 && change.bytes == 0 && old.areas > 0 { continue }
            // A committed page no value referred to is free (or reused): a value that refers to
            // it now holds a reference that outlived its area.
            if old.areas == 0 && change.areas > 0 && !own.contains(page) {
                throw access.corrupt(
                    page,
                    "a value refers to an area of this page, but no value of the committed version did (a reference kept after its area was gone)"
                )
            }
            let areas = old.areas + change.areas
            let bytes = old.bytes + change.bytes
            guard areas >= 0, bytes >= 0, (areas == 0) == (bytes == 0) else {
                throw access.corrupt(
                    page,
                    "the area counts of the page (\(old.areas) areas, \(old.bytes) bytes) do not cover the references this transaction removed (\(-change.areas) areas, \(-change.bytes) bytes): damaged counts"
                )
            }
            if areas == 0 {
                if old.areas > 0 { _ = try delete(key, in: counts) }
                freePage(page)
            } else {
                AreaCountsLayout.encode(areas: areas, bytes: bytes, into: &value)
                try put(key, value, in: counts)
            }
        }
    }
}
