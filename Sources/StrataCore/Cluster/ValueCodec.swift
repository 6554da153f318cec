import Foundation

/// The tagged encoding of values inside `AnyRealmValue` columns and collections (FORMAT.md,
/// "Tagged values").
enum ValueCodec {
    /// The tag of a list: a `UInt32` element count and the elements follow.
    static let listTag: UInt8 = 13

    static func write(_ value: StoreValue, _ out: inout [UInt8]) {
        switch value {
        case .null: out.append(0)
        case .bool(let b): out.append(1); out.append(b ? 1 : 0)
        case .int(let i): out.append(2); appendU64(UInt64(bitPattern: i), &out)
        case .float(let f): out.append(3); appendU32(f.bitPattern, &out)
        case .double(let d): out.append(4); appendU64(d.bitPattern, &out)
        case .string(let s): out.append(5); appendString(s, &out)
        case .data(let d): out.append(6); appendU32(UInt32(d.count), &out); out.append(contentsOf: d)
        case .timestamp(let s, let ns):
            out.append(7); appendU64(UInt64(bitPattern: s), &out); appendU32(UInt32(bitPattern: ns), &out)
        case .objectId(let b): out.append(8); out.append(contentsOf: b)
        case .uuid(let b): out.append(9); out.append(contentsOf: b)
        case .decimal128(let b): out.append(10); out.append(contentsOf: b)
        case .link(let k): out.append(11); appendU64(UInt64(bitPattern: k), &out)
        case .typedLink(let t, let k): out.append(12); appendString(t, &out); appendU64(UInt64(bitPattern: k), &out)
        case .list(let values):
            out.append(listTag)
            appendU32(UInt32(values.count), &out)
            for v in values { write(v, &out) }
        case .map(let entries):
            out.append(14)
            appendU32(UInt32(entries.count), &out)
            for k in entries.keys.sorted() {
                appendString(k, &out)
                write(entries[k]!, &out)
            }
        }
    }

    static func read(_ r: inout ByteReader) -> StoreValue? {
        guard let tag = r.u8() else { return nil }
        switch tag {
        case 0: return .null
        case 1: return r.u8().map { .bool($0 != 0) }
        case 2: return r.u64().map { .int(Int64(bitPattern: $0)) }
        case 3: return r.u32().map { .float(Float(bitPattern: $0)) }
        case 4: return r.u64().map { .double(Double(bitPattern: $0)) }
        case 5: return r.string().map { .string($0) }
        case 6: guard let n = r.u32(), let b = r.raw(Int(n)) else { return nil }; return .data(Array(b))
        case 7:
            guard let s = r.u64(), let ns = r.u32() else { return nil }
            return .timestamp(seconds: Int64(bitPattern: s), nanoseconds: Int32(bitPattern: ns))
        case 8: return r.raw(12).map { .objectId(Array($0)) }
        case 9: return r.raw(16).map { .uuid(Array($0)) }
        case 10: return r.raw(16).map { .decimal128(Array($0)) }
        case 11: return r.u64().map { .link(Int64(bitPattern: $0)) }
        case 12:
            guard let t = r.string(), let k = r.u64() else { return nil };
            return .typedLink(table: t, key: Int64(bitPattern: k))
        case 13:
            guard let n = r.u32() else { return nil }
            var values: [StoreValue] = []
            values.reserveCapacity(Int(min(n, 1 << 16)))
            for _ in 0..<n {
                guard let v = read(&r) else { return nil }
                values.append(v)
            }
            return .list(values)
        case 14:
            guard let n = r.u32() else { return nil }
            var entries: [String: StoreValue] = [:]
            for _ in 0..<n {
                guard let k = r.string(), let v = read(&r) else { return nil }
                entries[k] = v
            }
            return .map(entries)
        default: return nil
        }
    }

    static func appendU64(_ v: UInt64, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }
}

extension StoreValue {
    /// Appends the value in the tagged encoding (FORMAT.md, "Tagged values"): what a sync
    /// outbox entry holds, so a value reads back exactly as it was written.
    package func appendTagged(to out: inout [UInt8]) { ValueCodec.write(self, &out) }
}

extension ByteReader {
    /// Reads one value in the tagged encoding; nil when the bytes end early or the tag is unknown.
    package mutating func taggedValue() -> StoreValue? { ValueCodec.read(&self) }
}
