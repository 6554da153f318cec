/// Where an entry is, or would go, in an encoded map (offsets from the map's tag byte).
struct MapEntryPlace {
    /// The map's entry count.
    let count: UInt32
    /// The entry's first byte (its key), or where a new entry goes.
    let entryStart: Int
    /// The first byte of the entry's value.
    let valueStart: Int
    /// The byte after the entry.
    let entryEnd: Int
    /// The entry's value, nil when the map has no entry for the key.
    let previous: StoreValue?

    /// Reads the map `bytes` (tag 14 first) up to the entry for `key` or the first greater key;
    /// nil when they are not a map.
    init?(find key: String, in bytes: UnsafeRawBufferPointer) {
        var r = ByteReader(bytes)
        guard r.u8() == 14, let n = r.u32() else { return nil }
        count = n
        for _ in 0..<n {
            let entry = r.offset
            guard let k = r.string() else { return nil }
            let valueStart = r.offset
            if k == key {
                guard let v = ValueCodec.read(&r) else { return nil }
                (entryStart, self.valueStart, entryEnd, previous) = (entry, valueStart, r.offset, v)
                return
            }
            if key < k {
                (entryStart, self.valueStart, entryEnd, previous) = (entry, entry, entry, nil)
                return
            }
            guard ValueCodec.skip(&r) else { return nil }
        }
        (entryStart, valueStart, entryEnd, previous) = (r.offset, r.offset, r.offset, nil)
    }
}
