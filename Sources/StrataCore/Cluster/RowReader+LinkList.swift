extension RowReader {
    /// The object keys of list or set-of-links column `c`, in stored order, read straight from
    /// the row's bytes (a list of links is its tag and count, then a tag and an 8-byte key per
    /// element: FORMAT.md, "Tagged values"); no `StoreValue` per element. Empty for a null or
    /// absent value; nil when the bytes are not a list of links (the caller then reads the value
    /// the general way and reports what it finds).
    package func linkListKeys(_ c: Int) -> [Int64]? {
        guard c < n, !isNull(c) else { return [] }
        guard let bytes = variableBytes(c) else { return [] }
        var r = ByteReader(bytes)
        guard r.u8() == 13, let count = r.u32() else { return nil }
        let elements = Int(count)
        guard elements <= (bytes.count - r.offset) / 9 else { return nil }
        var keys = [Int64](repeating: 0, count: elements)
        var offset = r.offset
        for i in 0..<elements {
            guard bytes[offset] == 11 else { return nil }
            keys[i] = Int64(
                bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)))
            offset += 9
        }
        return keys
    }
}
