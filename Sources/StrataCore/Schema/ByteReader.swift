/// Sequential little-endian reads with bounds checks: every method returns nil past the end.
package struct ByteReader {
    package let bytes: UnsafeRawBufferPointer
    package var offset = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var atEnd: Bool { offset >= bytes.count }

    package mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    package mutating func u16() -> UInt16? {
        guard offset + 2 <= bytes.count else { return nil }
        defer { offset += 2 }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    package mutating func u32() -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        defer { offset += 4 }
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    package mutating func u64() -> UInt64? {
        guard offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    package mutating func raw(_ n: Int) -> UnsafeRawBufferPointer? {
        guard n >= 0, offset + n <= bytes.count else { return nil }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }

    package mutating func string() -> String? {
        guard let n = u32(), let b = raw(Int(n)) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }
}
