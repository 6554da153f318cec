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

    /// The first byte of an outbox entry in the first binary form (FORMAT.md, "Sync trees"),
    /// which this build still reads; an entry in the older JSON form starts with `[`.
    package static let binaryTag: UInt8 = 1
    /// The first byte of an outbox entry in the compact form this build writes: each table's
    /// field names once per entry, one clock per change.
    package static let compactTag: UInt8 = 2

    /// The kinds of item of a compact entry (FORMAT.md, "Sync trees").
    enum Kind {
        /// A write of some fields, all at one clock.
        static let write: UInt8 = 0
        static let delete: UInt8 = 1
        /// A write of every field of the table's list, in its order, at one clock.
        static let wholeWrite: UInt8 = 2
        /// A write of some fields, each with its own clock.
        static let clockedWrite: UInt8 = 3
        /// Not a change: the table the following changes are of, and its field list.
        static let table: UInt8 = 4
    }

    /// An outbox entry in the compact binary form, being written: a table's name and field
    /// names once, before its first change; each change names its fields by their number in
    /// that list.
    package final class Entry {
        let writer = SyncByteWriter()
        package private(set) var count: UInt32 = 0
        /// The table of the last table item (the table of the changes that follow it).
        private var table: String?

        package init() {
            writer.u8(SyncOperation.compactTag)
            writer.u32(0)
        }

        package var isEmpty: Bool { count == 0 }

        /// The entry's bytes (a copy).
        package var bytes: [UInt8] { writer.array }

        /// Writes the table item for `t` unless the last one was `t`'s.
        func section(_ t: SyncTable) {
            if table == t.name { return }
            precondition(t.fields.count <= Int(UInt16.max), "a synced table has more fields than an entry numbers")
            writer.u8(Kind.table)
            writer.raw(t.nameBytes)
            writer.u16(UInt16(t.fields.count))
            for f in t.fieldNameBytes { writer.raw(f) }
            table = t.name
        }

        /// Starts a change of kind `kind` of `t`'s object `key`: the table item if needed, the
        /// kind and the key. The caller writes the rest, then calls `end()`.
        func begin(_ t: SyncTable, _ kind: UInt8, key: String) {
            section(t)
            writer.u8(kind)
            writer.string(key)
        }

        /// Ends a change begun with `begin`.
        func end() {
            count += 1
            writer.patchU32(count, at: 1)
        }

        /// Appends a delete of `t`'s object `key` stamped `clock`.
        package func appendDelete(_ t: SyncTable, key: String, clock: SyncClock) {
            begin(t, Kind.delete, key: key)
            writer.clock(clock)
            end()
        }

        /// Appends a write of `fields` (name, value in wire form, clock), in `t`'s field order;
        /// names `t` does not have are left out.
        package func appendWrite(_ t: SyncTable, key: String, fields: [String: SyncRecord<StoreValue>.Field]) {
            let present = t.fields.indices.filter { fields[t.fields[$0].name] != nil }
            begin(t, Kind.clockedWrite, key: key)
            writer.u16(UInt16(present.count))
            for i in present {
                let v = fields[t.fields[i].name]!
                writer.u16(UInt16(i))
                writer.clock(v.clock)
                writer.tagged(v.value)
            }
            end()
        }

        /// Appends a write of the fields of `t` at `written` (index in `t.fields`, value in wire
        /// form, in field order), all stamped `clock`.
        package func appendWrite(
            _ t: SyncTable, key: String, written: [(field: Int, value: StoreValue)], clock: SyncClock
        ) {
            var whole = written.count == t.fields.count
            if whole { for (i, w) in written.enumerated() where w.field != i { whole = false } }
            begin(t, whole ? Kind.wholeWrite : Kind.write, key: key)
            writer.clock(clock)
            if !whole { writer.u16(UInt16(written.count)) }
            for w in written {
                if !whole { writer.u16(UInt16(w.field)) }
                writer.tagged(w.value)
            }
            end()
        }
    }

    /// The number of operations in an outbox entry, without decoding them (a binary entry says
    /// it in its header; an entry in JSON is decoded).
    package static func count(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> Int {
        if bytes.first == binaryTag || bytes.first == compactTag {
            guard bytes.count >= 5 else { throw badEntry }
            return Int(bytes[1]) | Int(bytes[2]) << 8 | Int(bytes[3]) << 16 | Int(bytes[4]) << 24
        }
        return try decode(bytes, tables: tables).count
    }

    private static var badEntry: SyncError {
        SyncError(
            .local,
            "An outbox entry ends early or has a kind of change this version does not know: the file is damaged, or a newer Strata wrote it. Uploads stop at this entry; the objects in the file are not affected. Open the file with the Strata version that wrote it, or check it with `strata verify`."
        )
    }

    /// Reads the operations of one outbox entry; unknown tables or fields are skipped (a schema
    /// that lost them since).
    package static func decode(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        if bytes.first == binaryTag || bytes.first == compactTag { return try decodeBinary(bytes, tables: tables) }
        return try decodeJSON(bytes, tables: tables)
    }

    private static func decodeBinary(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        try decodeForUpload(bytes, tables: tables).compactMap { op in tables[op.table].map { op.operation($0) } }
    }

    /// Reads the operations of one outbox entry as the upload uses them: fields by their index
    /// in the table, in the entry's order, without a dictionary per object. Unknown tables or
    /// fields are skipped, as `decode` does.
    package static func decodeForUpload(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncUploadOp] {
        if bytes.first == compactTag { return try decodeCompact(bytes, tables: tables) }
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
            // Bytes past the last change: the count in the header is damaged, and changes would be lost.
            guard r.atEnd else { throw badEntry }
            return out
        }
    }

    /// `decodeForUpload` of an entry in the compact form.
    private static func decodeCompact(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncUploadOp] {
        try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            _ = r.u8()
            guard let n = r.u32() else { throw badEntry }
            var out: [SyncUploadOp] = []
            out.reserveCapacity(Int(min(n, 1 << 16)))
            func clock() throws -> SyncClock {
                guard let t = r.u64(), let node = r.u64() else { throw badEntry }
                return SyncClock(time: t, node: node)
            }
            func number() throws -> Int {
                guard let i = r.u16() else { throw badEntry }
                return Int(i)
            }
            // The current table item: its table's name (`known`: this schema syncs it), and for
            // each field number of the entry the field's index in that table (-1 for a field the
            // model no longer has) and its type when a value of that type is taken as it is.
            // Plain arrays: copying a `SyncTable` or a `Field` per change retained their strings.
            var name = ""
            var known = false
            var sectionSeen = false
            var fields: [SyncTable.Field] = []
            var index: [Int] = []
            var plain: [ColumnType?] = []
            var nullable: [Bool] = []
            var read: UInt32 = 0
            var writes: [SyncUploadOp.Write] = []
            // A value queued before a migration changed the property's type: a number of
            // another width is converted, anything else dropped (the migration queues every
            // field again with a later clock).
            func write(_ number: Int, _ c: SyncClock) throws {
                guard number < index.count, let v = r.taggedValue() else { throw badEntry }
                let i = index[number]
                guard i >= 0 else { return }
                if let type = plain[number] {
                    switch (type, v) {
                    case (.int, .int), (.double, .double), (.string, .string), (.bool, .bool), (.float, .float),
                        (.data, .data), (.timestamp, .timestamp), (.objectId, .objectId), (.uuid, .uuid),
                        (.decimal128, .decimal128):
                        writes.append(.init(field: i, value: v, clock: c))
                        return
                    case (_, .null) where nullable[number]:
                        writes.append(.init(field: i, value: v, clock: c))
                        return
                    default: break
                    }
                }
                if let fitting = fields[i].fitting(v) { writes.append(.init(field: i, value: fitting, clock: c)) }
            }
            while read < n {
                guard let kind = r.u8() else { throw badEntry }
                if kind == Kind.table {
                    guard let tableName = r.string() else { throw badEntry }
                    let count = try number()
                    let table = tables[tableName]
                    name = tableName
                    known = table != nil
                    fields = table?.fields ?? []
                    index.removeAll(keepingCapacity: true)
                    plain.removeAll(keepingCapacity: true)
                    nullable.removeAll(keepingCapacity: true)
                    for _ in 0..<count {
                        guard let f = r.string() else { throw badEntry }
                        let i = table?.fieldIndex[f] ?? -1
                        index.append(i)
                        let field = i >= 0 ? fields[i] : nil
                        plain.append(
                            field.flatMap {
                                $0.collection == .none && $0.type != .mixed && $0.embedded == nil ? $0.type : nil
                            })
                        nullable.append(field?.isNullable ?? false)
                    }
                    sectionSeen = true
                    continue
                }
                guard sectionSeen, let key = r.string() else { throw badEntry }
                read += 1
                writes = []
                switch kind {
                case Kind.delete:
                    let c = try clock()
                    if known { out.append(SyncUploadOp(table: name, key: key, deleteClock: c, writes: [])) }
                    continue
                case Kind.wholeWrite:
                    let c = try clock()
                    writes.reserveCapacity(index.count)
                    for i in 0..<index.count { try write(i, c) }
                case Kind.write:
                    let c = try clock()
                    let m = try number()
                    writes.reserveCapacity(m)
                    for _ in 0..<m { try write(try number(), c) }
                case Kind.clockedWrite:
                    let m = try number()
                    writes.reserveCapacity(m)
                    for _ in 0..<m {
                        let i = try number()
                        try write(i, try clock())
                    }
                default:
                    throw badEntry
                }
                if known { out.append(SyncUploadOp(table: name, key: key, deleteClock: nil, writes: writes)) }
            }
            // Bytes past the last change: the count in the header is damaged, and changes would be lost.
            guard r.atEnd else { throw badEntry }
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
