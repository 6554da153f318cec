/// The area-counts tree (catalog name ``Catalog/areaCountsName``): key the area page's number
/// (`u32`, big-endian), value the number of areas (`u32`) and their bytes (`u32`) that the
/// version's values refer to.
enum AreaCountsLayout {
    static let valueSize = 8

    /// The key of area page `n`.
    static func key(_ n: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8),
            UInt8(truncatingIfNeeded: n),
        ]
    }

    /// The page a key names; nil for a key that is not 4 bytes.
    static func page(_ k: UnsafeRawBufferPointer) -> UInt32? {
        guard k.count == 4 else { return nil }
        return UInt32(k[0]) << 24 | UInt32(k[1]) << 16 | UInt32(k[2]) << 8 | UInt32(k[3])
    }

    /// The counts a value holds; nil for a value that is not 8 bytes.
    static func decode<B: Collection<UInt8>>(_ v: B) -> (areas: Int, bytes: Int)? {
        guard v.count == valueSize else { return nil }
        // Two little-endian u32s, read without copying the bytes.
        var word: UInt64 = 0
        for (i, b) in v.enumerated() { word |= UInt64(b) << (8 * UInt64(i)) }
        return (Int(word & 0xFFFF_FFFF), Int(word >> 32))
    }

    static func encode(areas: Int, bytes: Int, into value: inout [UInt8]) {
        value.withUnsafeMutableBytes {
            $0.baseAddress!.setU32(0, UInt32(areas))
            $0.baseAddress!.setU32(4, UInt32(bytes))
        }
    }
}
