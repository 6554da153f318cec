/// Strata's page checksum: a 64-bit hash over 8-byte words in four independent lanes.
///
/// The lanes use the multiply-rotate round popularised by xxHash64 (with its published primes), so
/// a page is hashed at several GB/s in release builds; the lanes are folded and avalanched at the
/// end. It detects torn and corrupted pages; it is not a cryptographic hash.
enum Checksum {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        var a = acc &+ input &* p2
        a = (a << 31) | (a >> 33)
        return a &* p1
    }

    /// Hashes `count` bytes at `start`; `count` must be a multiple of 8 and `start` 8-byte aligned.
    static func compute(_ start: UnsafeRawPointer, count: Int, seed: UInt64 = 0) -> UInt64 {
        precondition(count % 8 == 0, "checksummed ranges are whole 8-byte words")
        var v1 = seed &+ p1 &+ p2
        var v2 = seed &+ p2
        var v3 = seed
        var v4 = seed &- p1
        let words = start.assumingMemoryBound(to: UInt64.self)
        let n = count / 8
        var i = 0
        while i + 4 <= n {
            v1 = round(v1, UInt64(littleEndian: words[i]))
            v2 = round(v2, UInt64(littleEndian: words[i + 1]))
            v3 = round(v3, UInt64(littleEndian: words[i + 2]))
            v4 = round(v4, UInt64(littleEndian: words[i + 3]))
            i += 4
        }
        var h =
            ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57)) &+ ((v3 << 12) | (v3 >> 52))
            &+ ((v4 << 18) | (v4 >> 46))
        while i < n {
            h ^= round(0, UInt64(littleEndian: words[i]))
            h = ((h << 27) | (h >> 37)) &* p1 &+ p4
            i += 1
        }
        h ^= UInt64(count)
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        // Never 0, so an all-zero page (a hole in a sparse file) never verifies.
        return h == 0 ? p5 : h
    }

    /// The checksum a page (or an overflow run) of `length` bytes at `page` must carry in its header.
    @inline(__always)
    static func ofPage(_ page: UnsafeRawPointer, length: Int) -> UInt64 {
        compute(page + 8, count: length - 8)
    }
}
