import Foundation
import StrataCore

/// One change of one object as the outbox holds it and the uploader sends it: a write of some
/// fields (each with its clock) or a delete (with its clock). The primary key is in its text
/// form; values are in wire form (`SyncTable`).
package struct SyncOperation: Equatable, Sendable {
    package var table: String
    package var key: String
    /// The delete's clock, for a delete.
    package var deleteClock: SyncClock?
    /// Field name -> (value, clock), for a write.
    package var fields: [String: SyncRecord<StoreValue>.Field]

    package init(table: String, key: String, deleteClock: SyncClock?, fields: [String: SyncRecord<StoreValue>.Field]) {
        self.table = table
        self.key = key
        self.deleteClock = deleteClock
        self.fields = fields
    }

    /// The first byte of an outbox entry in the binary form (FORMAT.md, "Sync trees"); an entry
    /// in the older JSON form starts with `[`.
    package static let binaryTag: UInt8 = 1

    /// An outbox entry in the binary form, being written.
    package struct Entry {
        package private(set) var bytes: [UInt8] = [SyncOperation.binaryTag, 0, 0, 0, 0]
        package private(set) var count: UInt32 = 0

        package init() {}

        package var isEmpty: Bool { count == 0 }

        /// Appends a delete of object `key` of `table` stamped `clock`.
        package mutating func appendDelete(table: String, key: String, clock: SyncClock) {
            bytes.append(1)
            Self.append(table, &bytes)
            Self.append(key, &bytes)
            Self.append(clock, &bytes)
            bump()
        }

        /// Appends a write of `fields` (name, value in wire form, clock), in `t`'s field order.
        package mutating func appendWrite(
            _ t: SyncTable, key: String, fields: [String: SyncRecord<StoreValue>.Field]
        ) {
            let present = t.fields.indices.filter { fields[t.fields[$0].name] != nil }
            beginWrite(t, key: key, fieldCount: present.count)
            for i in present {
                let v = fields[t.fields[i].name]!
                appendField(t, i, v.value, v.clock)
            }
            bump()
        }

        /// Appends a write of the fields of `t` at `written` (index in `t.fields`, value in wire
        /// form, in field order), all stamped `clock`.
        package mutating func appendWrite(
            _ t: SyncTable, key: String, written: [(field: Int, value: StoreValue)], clock: SyncClock
        ) {
            beginWrite(t, key: key, fieldCount: written.count)
            for w in written { appendField(t, w.field, w.value, clock) }
            bump()
        }

        private mutating func beginWrite(_ t: SyncTable, key: String, fieldCount: Int) {
            bytes.append(0)
            bytes.append(contentsOf: t.nameBytes)
            Self.append(key, &bytes)
            Self.append(UInt32(fieldCount), &bytes)
        }

        private mutating func appendField(_ t: SyncTable, _ field: Int, _ value: StoreValue, _ clock: SyncClock) {
            bytes.append(contentsOf: t.fieldNameBytes[field])
            Self.append(clock, &bytes)
            value.appendTagged(to: &bytes)
        }

        private mutating func bump() {
            count += 1
            Self.patch(count, at: 1, &bytes)
        }

        static func append(_ v: UInt32, _ out: inout [UInt8]) {
            withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
        }

        static func patch(_ v: UInt32, at i: Int, _ out: inout [UInt8]) {
            withUnsafeBytes(of: v.littleEndian) { for j in 0..<4 { out[i + j] = $0[j] } }
        }

        static func append(_ s: String, _ out: inout [UInt8]) {
            var s = s
            s.withUTF8 { u in
                append(UInt32(u.count), &out)
                out.append(contentsOf: u)
            }
        }

        static func append(_ c: SyncClock, _ out: inout [UInt8]) {
            // One append of both halves (an append of a few bytes costs about 100 instructions).
            withUnsafeBytes(of: (c.time.littleEndian, c.node.littleEndian)) { out.append(contentsOf: $0) }
        }
    }

    /// The number of operations in an outbox entry, without decoding them (a binary entry says
    /// it in its header; an entry in JSON is decoded).
    package static func count(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> Int {
        if bytes.first == binaryTag {
            guard bytes.count >= 5 else { throw badEntry }
            return Int(bytes[1]) | Int(bytes[2]) << 8 | Int(bytes[3]) << 16 | Int(bytes[4]) << 24
        }
        return try decode(bytes, tables: tables).count
    }

    private static var badEntry: SyncError {
        SyncError(.local, "An outbox entry ends early or has an unknown kind of change: the file is damaged.")
    }

    /// Reads the operations of one outbox entry; unknown tables or fields are skipped (a schema
    /// that lost them since).
    package static func decode(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        if bytes.first == binaryTag { return try decodeBinary(bytes, tables: tables) }
        return try decodeJSON(bytes, tables: tables)
    }

    private static func decodeBinary(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        try decodeForUpload(bytes, tables: tables).compactMap { op in tables[op.table].map { op.operation($0) } }
    }

    /// Reads the operations of one outbox entry as the upload uses them: fields by their index
    /// in the table, in the entry's order, without a dictionary per object. Unknown tables or
    /// fields are skipped, as `decode` does.
    package static func decodeForUpload(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncUploadOp] {
        guard bytes.first == binaryTag else {
            return try decodeJSON(bytes, tables: tables).compactMap { op in
                tables[op.table].map { SyncUploadOp(op, $0) }
            }
        }
        return try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            _ = r.u8()
            guard let n = r.u32() else { throw badEntry }
            var out: [SyncUploadOp] = []
            out.reserveCapacity(Int(min(n, 1 << 16)))
            func clock() -> SyncClock? {
                guard let t = r.u64(), let node = r.u64() else { return nil }
                return SyncClock(time: t, node: node)
            }
            // An entry's operations are mostly of one table, their fields in its order: names are
            // compared as bytes with the current table's and the expected field's, and decoded
            // (and looked up) only when they differ.
            var name = ""
            var known = false
            var nameBytes: [UInt8] = []
            var fields: [SyncTable.Field] = []
            var fieldNames: [[UInt8]] = []
            var fieldIndex: [String: Int] = [:]
            func same(_ raw: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
                guard raw.count == b.count else { return false }
                return b.isEmpty || b.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress!, b.count) == 0 }
            }
            func rawString() -> UnsafeRawBufferPointer? {
                guard let n = r.u32() else { return nil }
                return r.raw(Int(n))
            }
            for _ in 0..<n {
                guard let kind = r.u8(), let t = rawString() else { throw badEntry }
                if t.isEmpty || !same(t, nameBytes) {
                    nameBytes = Array(t)
                    name = String(decoding: t, as: UTF8.self)
                    let table = tables[name]
                    known = table != nil
                    fields = table?.fields ?? []
                    fieldNames = fields.map { Array($0.name.utf8) }
                    fieldIndex = table?.fieldIndex ?? [:]
                }
                guard let k = r.string() else { throw badEntry }
                switch kind {
                case 1:
                    guard let c = clock() else { throw badEntry }
                    if known { out.append(SyncUploadOp(table: name, key: k, deleteClock: c, writes: [])) }
                case 0:
                    guard let count = r.u32() else { throw badEntry }
                    var writes: [SyncUploadOp.Write] = []
                    writes.reserveCapacity(Int(min(count, 1 << 10)))
                    var next = 0
                    for _ in 0..<count {
                        guard let f = rawString(), let c = clock(), let v = r.taggedValue() else { throw badEntry }
                        guard known else { continue }
                        // A value queued before a migration changed the property's type: a
                        // number of another width is converted, anything else dropped (the
                        // migration queues every field again with a later clock).
                        let i =
                            next < fields.count && same(f, fieldNames[next])
                            ? next : fieldIndex[String(decoding: f, as: UTF8.self)]
                        if let i, let fitting = fields[i].fitting(v) {
                            writes.append(.init(field: i, value: fitting, clock: c))
                            next = i + 1
                        }
                    }
                    if known { out.append(SyncUploadOp(table: name, key: k, deleteClock: nil, writes: writes)) }
                default:
                    throw badEntry
                }
            }
            return out
        }
    }

    /// Reads an entry in the JSON form earlier builds wrote: `{"t": table, "k": key, "d":
    /// clock}` for a delete, `{"t": table, "k": key, "f": {name: [value, clock], ...}}` for a write.
    private static func decodeJSON(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        guard let list = try SyncJSON.parse(Array(bytes)) as? [[String: Any]] else {
            throw SyncError(.local, "An outbox entry is not a JSON array of changes.")
        }
        var out: [SyncOperation] = []
        for o in list {
            guard let t = o["t"] as? String, let k = o["k"] as? String, let table = tables[t] else { continue }
            if let d = o["d"] as? String {
                guard let c = SyncClock(text: d) else { continue }
                out.append(SyncOperation(table: t, key: k, deleteClock: c, fields: [:]))
                continue
            }
            var fields: [String: SyncRecord<StoreValue>.Field] = [:]
            for (name, pair) in o["f"] as? [String: Any] ?? [:] {
                guard let i = table.fieldIndex[name], let p = pair as? [Any], p.count == 2,
                    let cs = p[1] as? String, let c = SyncClock(text: cs),
                    let v = table.fields[i].value(fromJSON: p[0])
                else { continue }
                fields[name] = .init(value: v, clock: c)
            }
            out.append(SyncOperation(table: t, key: k, deleteClock: nil, fields: fields))
        }
        return out
    }
}
