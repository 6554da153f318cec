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
        var target = key
        let found: (order: Int, entry: Int, valueStart: Int)? = target.withUTF8 { wanted in
            let wantedIsASCII = wanted.allSatisfy { $0 < 0x80 }
            for _ in 0..<n {
                let entry = r.offset
                guard let length = r.u32(), let stored = r.raw(Int(length)) else { return nil }
                let order = Self.order(of: wanted, wantedIsASCII, key, stored)
                if order <= 0 { return (order, entry, r.offset) }
                guard ValueCodec.skip(&r) else { return nil }
            }
            return (1, r.offset, r.offset)
        }
        guard let found else { return nil }
        if found.order == 0 {
            guard let v = ValueCodec.read(&r) else { return nil }
            (entryStart, valueStart, entryEnd, previous) = (found.entry, found.valueStart, r.offset, v)
        } else {
            (entryStart, valueStart, entryEnd, previous) = (found.entry, found.entry, found.entry, nil)
        }
    }

    /// How `key` (whose UTF-8 is `wanted`) orders against the stored key `stored`: negative
    /// when it goes before, zero when equal, positive after, in Swift's `String` order, which the
    /// encoding's entries follow. Two ASCII keys compare by bytes (the same order); any other
    /// pair as Swift strings (canonical equivalence).
    private static func order(
        of wanted: UnsafeBufferPointer<UInt8>, _ wantedIsASCII: Bool, _ key: String, _ stored: UnsafeRawBufferPointer
    ) -> Int {
        if wantedIsASCII, stored.allSatisfy({ $0 < 0x80 }) {
            let common = min(wanted.count, stored.count)
            for i in 0..<common where wanted[i] != stored[i] { return wanted[i] < stored[i] ? -1 : 1 }
            return wanted.count == stored.count ? 0 : (wanted.count < stored.count ? -1 : 1)
        }
        let k = String(decoding: stored, as: UTF8.self)
        return key == k ? 0 : (key < k ? -1 : 1)
    }
}
