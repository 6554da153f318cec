/// The seed corpus (`Fuzz/seeds`, written by `STRATA_FUZZ_MAKE_SEEDS=DIR strata-fuzz`): each base
/// file as it is, with each mode, and with one edit of each kind aimed at a meta record or a tree
/// page, so the fuzzer starts from inputs that open.
public enum Seeds {
    /// Every seed: a file name and its bytes.
    public static func all(bases: [[UInt8]]) -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        for base in 0..<BaseFiles.count {
            let b = UInt8(base)
            seeds.append(("base\(base)-plain", [b]))
            seeds.append(("base\(base)-write", [b | 32]))
            seeds.append(("base\(base)-unclean-verifyall", [b | 8 | 64]))
            // Meta fields of slot 0 set to edge values, resealed (kinds 2).
            seeds.append(("base\(base)-meta-pagecount", [b | 4, 2 << 5 | 12, 0, 0, 0, 26]))
            seeds.append(("base\(base)-meta-catalog", [b | 4 | 32, 2 << 5 | 10, 0, 0, 0, 2]))
            seeds.append(("base\(base)-meta-freelist", [b | 4 | 32, 2 << 5 | 11, 0, 0, 0, 1]))
            // A tree page (page 2) edited, resealed: cell count, a cell offset, a child pointer.
            let page2 = base == 2 ? 8192 : 4096
            seeds.append(("base\(base)-page2-cellcount", [b | 4, 2 << 5 | 3, UInt8(page2 & 0xFF), UInt8(page2 >> 8 & 0xFF), 0, 9]))
            seeds.append(("base\(base)-page2-slot", [b | 4, 3 << 5, UInt8((page2 + 34) & 0xFF), UInt8((page2 + 34) >> 8 & 0xFF), 0, 0x10, 0x0F]))
            seeds.append(("base\(base)-page3-pointer", [b | 4 | 32, 4 << 5, UInt8((2 * page2 + 40) & 0xFF), UInt8((2 * page2 + 40) >> 8 & 0xFF), 0, 1]))
            // Not resealed: a flipped byte the checksum must catch.
            seeds.append(("base\(base)-flip", [b | 64, 1 << 5 | 3, 0x10, 0x30, 0, 0]))
            // A page copied over another, and the file cut short.
            seeds.append(("base\(base)-copy", [b | 4, 5 << 5 | 2, UInt8((3 * page2) & 0xFF), UInt8((3 * page2) >> 8 & 0xFF), 0]))
            seeds.append(("base\(base)-cut", [b, 6 << 5, 0x00, 0x50, 0]))
        }
        // Raw mode: the small storage file as bytes, resealed.
        seeds.append(("raw-base0", [16 | 4] + bases[0]))
        return seeds
    }
}
