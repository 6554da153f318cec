// Little-endian field access inside pages. All page memory is reached through these helpers so
// that the byte order is explicit in one place.

extension UnsafeRawPointer {
    @inline(__always) func u8(_ offset: Int) -> UInt8 { load(fromByteOffset: offset, as: UInt8.self) }
    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}

extension UnsafeMutableRawPointer {
    @inline(__always) func u8(_ offset: Int) -> UInt8 { UnsafeRawPointer(self).u8(offset) }
    @inline(__always) func u16(_ offset: Int) -> UInt16 { UnsafeRawPointer(self).u16(offset) }
    @inline(__always) func u32(_ offset: Int) -> UInt32 { UnsafeRawPointer(self).u32(offset) }
    @inline(__always) func u64(_ offset: Int) -> UInt64 { UnsafeRawPointer(self).u64(offset) }
    @inline(__always) func setU8(_ offset: Int, _ v: UInt8) { storeBytes(of: v, toByteOffset: offset, as: UInt8.self) }
    @inline(__always) func setU16(_ offset: Int, _ v: UInt16) {
        storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt16.self)
    }
    @inline(__always) func setU32(_ offset: Int, _ v: UInt32) {
        storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt32.self)
    }
    @inline(__always) func setU64(_ offset: Int, _ v: UInt64) {
        storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
}

/// Compares two byte strings in lexicographic (memcmp) order.
///
/// The first 8 bytes are compared as one big-endian word, which decides most comparisons of short
/// keys (object keys, integers) without a call to `memcmp`; measured on the bulk-insert benchmark
/// (see PERFORMANCE notes in FORMAT.md's neighbour, Docs/Performance.md).
@inline(__always)
func compareBytes(_ a: UnsafeRawPointer, _ aCount: Int, _ b: UnsafeRawPointer, _ bCount: Int) -> Int {
    let n = min(aCount, bCount)
    if n >= 8 {
        let x = UInt64(bigEndian: a.loadUnaligned(as: UInt64.self))
        let y = UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))
        if x != y { return x < y ? -1 : 1 }
        if n > 8 {
            let c = memcmpBytes(a + 8, b + 8, n - 8)
            if c != 0 { return c }
        }
    } else if n > 0 {
        let c = memcmpBytes(a, b, n)
        if c != 0 { return c }
    }
    return aCount == bCount ? 0 : (aCount < bCount ? -1 : 1)
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// memcmp and memmove are libc memory routines, not system calls; they live here rather than in
// StrataPOSIX because they touch no operating-system state.
@inline(__always) func memcmpBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Int {
    Int(memcmp(a, b, n))
}
@inline(__always) func moveBytes(_ dst: UnsafeMutableRawPointer, _ src: UnsafeRawPointer, _ n: Int) {
    memmove(dst, src, n)
}
@inline(__always) func zeroBytes(_ dst: UnsafeMutableRawPointer, _ n: Int) { memset(dst, 0, n) }
