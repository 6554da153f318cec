/// The catalog: a B+tree from tree names to their root page and entry count.
enum Catalog {
    static func decode(_ name: String, _ v: UnsafeRawBufferPointer, _ acc: PageAccess, root: UInt32) throws -> Tree {
        guard v.count == TreeInfoLayout.size, let p = v.baseAddress else {
            throw acc.corrupt(root, "catalog entry for a tree has \(v.count) bytes")
        }
        return Tree(name: name, root: p.u32(0), count: p.u64(8))
    }

    static func encode(_ t: Tree) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: TreeInfoLayout.size)
        out.withUnsafeMutableBytes { b in
            b.baseAddress!.setU32(0, t.root)
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

    static func names(root: UInt32, _ acc: PageAccess) throws -> [String] {
        var out: [String] = []
        try acc.forEach(root: root, from: nil) { k, _ in
            out.append(String(decoding: k, as: UTF8.self))
            return true
        }
        return out
    }
}
