/// The catalog: a B+tree from tree names to their root page and entry count.
enum Catalog {
    static func decode(_ name: String, _ v: UnsafeRawBufferPointer, _ acc: PageAccess, root: UInt32) throws -> Tree {
        guard v.count == TreeInfoLayout.size, let p = v.baseAddress else {
            throw acc.corrupt(root, "catalog entry for a tree has \(v.count) bytes")
        }
        let flags = p.u32(TreeInfoLayout.flags)
        guard flags & ~TreeInfoLayout.holdsAreas == 0 else {
            throw acc.corrupt(root, "catalog entry for tree '\(name)' has unknown flags \(flags)")
        }
        return Tree(name: name, root: p.u32(0), count: p.u64(8), holdsAreas: flags & TreeInfoLayout.holdsAreas != 0)
    }

    static func encode(_ t: Tree) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: TreeInfoLayout.size)
        out.withUnsafeMutableBytes { b in
            b.baseAddress!.setU32(0, t.root)
            b.baseAddress!.setU32(TreeInfoLayout.flags, t.holdsAreas ? TreeInfoLayout.holdsAreas : 0)
            b.baseAddress!.setU64(8, t.count)
        }
        return out
    }

    static func lookup(_ name: String, root: UInt32, _ acc: PageAccess) throws -> Tree? {
        var key = Array(name.utf8)
        return try key.withUnsafeMutableBytes { k in
            guard let v = try acc.get(root: root, UnsafeRawBufferPointer(k)) else { return nil }
            return try decode(name, v, acc, root: root)
        }
    }

    /// The names of the trees the catalog lists, without the engine's own area-counts tree
    /// (``areaCountsName``) unless `includingAreaCounts` is true.
    static func names(root: UInt32, _ acc: PageAccess, includingAreaCounts: Bool = false) throws -> [String] {
        var out: [String] = []
        try acc.forEach(root: root, from: nil) { k, _ in
            if k.count > 0 || includingAreaCounts { out.append(String(decoding: k, as: UTF8.self)) }
            return true
        }
        return out
    }

    /// The catalog name of the area-counts tree (FORMAT.md, "Area pages"): the empty name, which
    /// no caller can give a tree (`openTree` refuses it).
    static let areaCountsName = ""
}
