/// Walks every page of one version: checksums, node structure, key order, separator bounds,
/// equal leaf depth, tree counts, and that every page is used exactly once or free.
struct Verifier {
    let access: PageAccess
    let meta: MetaRecord
    var owner: [UInt8]  // 0 = unseen, 1 = tree, 2 = free, 3 = bookkeeping, 4 = area page
    /// The areas the values of trees that hold areas refer to, by page: (offset, length) each.
    var areaRefs: [UInt32: [(offset: Int, length: Int)]] = [:]

    init(access: PageAccess, meta: MetaRecord) {
        self.access = access
        self.meta = meta
        owner = [UInt8](repeating: 0, count: Int(meta.pageCount))
        owner[0] = 3
        owner[1] = 3
    }

    mutating func claim(_ n: UInt32, _ kind: UInt8, run: Int = 1) throws {
        guard n >= 2, Int(n) + run <= owner.count else {
            throw access.corrupt(n, "page outside the file's \(owner.count) pages")
        }
        for k in 0..<run {
            let i = Int(n) + k
            guard owner[i] == 0 else {
                throw access.corrupt(UInt32(i), "page is used twice (kinds \(owner[i]) and \(kind))")
            }
            owner[i] = kind
        }
    }

    func checkChecksum(_ n: UInt32, length: Int) throws {
        try access.revealForCheck(n, pages: length / access.pageSize)
        let p = access.base + Int(n) * access.pageSize
        guard p.u32(PageHeader.pageNumber) == n else {
            throw access.corrupt(n, "header names page \(p.u32(PageHeader.pageNumber))")
        }
        guard p.u64(PageHeader.version) <= meta.version else {
            throw access.corrupt(n, "written by a future version \(p.u64(PageHeader.version))")
        }
        guard p.u64(PageHeader.checksum) == Checksum.ofPage(p, length: length) else {
            throw access.corrupt(n, "checksum mismatch")
        }
    }

    /// Checks the subtree at `n`: keys in [lower, upper); returns (entries, depth).
    mutating func walk(
        _ n: UInt32, lower: [UInt8]?, upper: [UInt8]?, depth: Int, holdsAreas: Bool = false
    ) throws -> (UInt64, Int) {
        guard depth < 64 else { throw access.corrupt(n, "tree deeper than 64 levels") }
        try claim(n, 1)
        try checkChecksum(n, length: access.pageSize)
        let p = try access.node(n)
        let count = Node.count(p)
        // Cells must lie inside the cell area and not overlap.
        var spans: [(Int, Int)] = []
        for i in 0..<count {
            let off = try Node.cell(p, i, access)
            let size = Node.cellSize(p, i, leaf: Node.isLeaf(p))
            guard off >= Node.cellStart(p), off + size <= access.pageSize else {
                throw access.corrupt(n, "cell \(i) outside the cell area")
            }
            spans.append((off, size))
        }
        spans.sort { $0.0 < $1.0 }
        var used = 0
        for k in spans.indices {
            used += spans[k].1
            if k > 0, spans[k - 1].0 + spans[k - 1].1 > spans[k].0 { throw access.corrupt(n, "cells overlap") }
        }
        guard used + Node.garbage(p) == access.pageSize - Node.cellStart(p) else {
            throw access.corrupt(n, "cell bytes (\(used)) plus garbage (\(Node.garbage(p))) do not fill the cell area")
        }
        func inBounds(_ k: UnsafeRawBufferPointer) -> Bool {
            let key = Array(k)
            if let lower, key.lexicographicallyPrecedes(lower) { return false }
            if let upper, !key.lexicographicallyPrecedes(upper) { return false }
            return true
        }
        if Node.isLeaf(p) {
            var previous: [UInt8]? = nil
            for i in 0..<count {
                let k = try Node.leafKey(p, i, access)
                guard inBounds(k) else { throw access.corrupt(n, "key \(i) outside the bounds its parent sets") }
                if let previous {
                    guard previous.lexicographicallyPrecedes(Array(k)) else {
                        throw access.corrupt(n, "keys out of order at \(i)")
                    }
                }
                previous = Array(k)
                let value = try Node.leafValue(p, i, access)
                if holdsAreas {
                    let bytes = try access.value(p, i)
                    guard let refs = AreaPrefix.count(of: bytes) else {
                        throw access.corrupt(
                            n, "value \(i) of a tree that holds areas does not begin with area references")
                    }
                    if case .overflow = value, refs > 0 {
                        throw access.corrupt(n, "value \(i), in an overflow run, begins with area references")
                    }
                    for r in 0..<refs {
                        let ref = AreaPrefix.reference(r, of: bytes)
                        areaRefs[ref.page, default: []].append((Int(ref.offset), Int(ref.length)))
                    }
                }
                if case .overflow(let first, let length) = value {
                    _ = try access.overflowValue(first: first, length: length)
                    let run = Int(try access.page(first).u32(PageHeader.runPages))
                    try claim(first, 1, run: run)
                    try checkChecksum(first, length: run * access.pageSize)
                }
            }
            return (UInt64(count), 1)
        }
        var total: UInt64 = 0
        var leafDepth = -1
        for i in 0..<count {
            let lo: [UInt8]? = i == 0 ? lower : Array(try Node.branchKey(p, i, access))
            let hi: [UInt8]? = i + 1 < count ? Array(try Node.branchKey(p, i + 1, access)) : upper
            if i > 0 {
                guard inBounds(try Node.branchKey(p, i, access)) else {
                    throw access.corrupt(n, "separator \(i) outside its bounds")
                }
                if let hi, let lo, !lo.lexicographicallyPrecedes(hi) {
                    throw access.corrupt(n, "separators out of order at \(i)")
                }
            }
            let (c, d) = try walk(
                try Node.child(p, i, access), lower: lo, upper: hi, depth: depth + 1, holdsAreas: holdsAreas)
            if leafDepth == -1 {
                leafDepth = d
            } else if leafDepth != d {
                throw access.corrupt(n, "leaves at different depths")
            }
            total += c
        }
        return (total, leafDepth + 1)
    }

    mutating func run() throws -> VerifyReport {
        var trees: [String: UInt64] = [:]
        var depths: [String: Int] = [:]
        if meta.catalogRoot != 0 {
            _ = try walk(meta.catalogRoot, lower: nil, upper: nil, depth: 0)
            var entries: [(String, Tree)] = []
            try access.forEach(root: meta.catalogRoot, from: nil) { k, v in
                let name = String(decoding: k, as: UTF8.self)
                entries.append((name, try Catalog.decode(name, v, access, root: meta.catalogRoot)))
                return true
            }
            for (name, t) in entries {
                if t.root == 0 {
                    guard t.count == 0 else {
                        throw access.corrupt(meta.catalogRoot, "empty tree '\(name)' records \(t.count) entries")
                    }
                    trees[name] = 0
                    continue
                }
                let (c, d) = try walk(t.root, lower: nil, upper: nil, depth: 0, holdsAreas: t.holdsAreas)
                guard c == t.count else {
                    throw access.corrupt(t.root, "tree '\(name)' holds \(c) entries, the catalog says \(t.count)")
                }
                if name == Catalog.areaCountsName { continue }
                trees[name] = c
                depths[name] = d
            }
            let counts = entries.first { $0.0 == Catalog.areaCountsName }?.1
            try checkAreas(counts: counts)
        } else if !areaRefs.isEmpty {
            throw access.corrupt(0, "values refer to areas in an empty database")
        }
        let treePages = owner.filter { $0 == 1 }.count
        // The free list.
        var next = meta.freeListHead
        var freePages = 0
        while next != 0 {
            try claim(next, 3)
            try checkChecksum(next, length: access.pageSize)
            let p = try access.page(next)
            guard p.u8(PageHeader.type) == PageType.freeList.rawValue else {
                throw access.corrupt(next, "expected a free-list page")
            }
            for i in 0..<Int(p.u32(PageHeader.entryCount)) {
                let e = PageHeader.size + FreeListLayout.entrySize * i
                let first = p.u32(e + 8), len = Int(p.u32(e + 12))
                try claim(first, 2, run: len)
                freePages += len
            }
            next = p.u32(PageHeader.nextPage)
        }
        for e in meta.inlineFree {
            try claim(e.first, 2, run: Int(e.count))
            freePages += Int(e.count)
        }
        // The commit list pages this version's commit wrote (older ones in the chain are free).
        next = meta.listHead
        var own = 0
        while next != 0 && own < Int(meta.listPagesOwn) {
            try claim(next, 3)
            try checkChecksum(next, length: access.pageSize)
            next = try access.page(next).u32(PageHeader.nextPage)
            own += 1
        }
        var leaked: [UInt32] = []
        for (i, o) in owner.enumerated() where o == 0 { leaked.append(UInt32(i)) }
        return VerifyReport(
            version: VersionID(meta.version), pageCount: owner.count, treePages: treePages, freePages: freePages,
            bookkeepingPages: owner.filter { $0 == 3 }.count, leakedPages: leaked, trees: trees, depths: depths,
            areaPages: owner.filter { $0 == 4 }.count)
    }

    /// Checks the area pages the values refer to (`areaRefs`) against the area-counts tree:
    /// every referred page is an area page of the version, used once, with a valid checksum;
    /// every area lies inside the page's used bytes at an aligned offset and overlaps no other;
    /// the tree lists exactly the referred pages, each with its number of areas and bytes.
    mutating func checkAreas(counts: Tree?) throws {
        var listed: [UInt32: (areas: Int, bytes: Int)] = [:]
        if let counts, counts.root != 0 {
            try access.forEach(root: counts.root, from: nil) { k, v in
                guard let page = AreaCountsLayout.page(k), let c = AreaCountsLayout.decode(v) else {
                    throw access.corrupt(
                        counts.root, "an entry of the area-counts tree is not a 4-byte key and an 8-byte value")
                }
                listed[page] = c
                return true
            }
        }
        for (page, refs) in areaRefs.sorted(by: { $0.key < $1.key }) {
            try claim(page, 4)
            try checkChecksum(page, length: access.pageSize)
            let p = try access.page(page)
            guard p.u8(PageHeader.type) == PageType.area.rawValue else {
                throw access.corrupt(
                    page, "values refer to areas in it, but it is a page of type \(p.u8(PageHeader.type))")
            }
            let used = Int(p.u16(AreaLayout.used))
            guard used >= AreaLayout.first, used <= access.pageSize else {
                throw access.corrupt(page, "an area page whose areas end at byte \(used), outside the page")
            }
            var end = AreaLayout.first
            var bytes = 0
            for r in refs.sorted(by: { $0.offset < $1.offset }) {
                guard r.offset >= end, r.offset % AreaLayout.alignment == 0, r.length >= 1, r.offset + r.length <= used
                else {
                    throw access.corrupt(
                        page,
                        "an area of \(r.length) bytes at \(r.offset) overlaps another, or lies outside the page's areas"
                    )
                }
                end = r.offset + r.length
                bytes += r.length
            }
            guard let c = listed.removeValue(forKey: page) else {
                throw access.corrupt(page, "values refer to areas in it, but the area-counts tree does not list it")
            }
            guard c.areas == refs.count, c.bytes == bytes else {
                throw access.corrupt(
                    page,
                    "values refer to \(refs.count) areas (\(bytes) bytes) in it; the area-counts tree says \(c.areas) (\(c.bytes) bytes)"
                )
            }
        }
        if let (page, c) = listed.min(by: { $0.key < $1.key }) {
            throw access.corrupt(
                page,
                "the area-counts tree lists \(c.areas) areas in it, but no value refers to any (a leaked area page)")
        }
    }
}
