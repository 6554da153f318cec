import StrataCore

/// The sync state a synced realm keeps in its own file, in trees beside the objects, written in
/// the same commits as the changes they describe (FORMAT.md, "Sync trees"):
///
/// - `y:c:<T>`: per object key (8 bytes, the key form) the primary key's text and each field's
///   clock;
/// - `y:t:<T>`: per primary key text, the clock of the latest delete of that object;
/// - `y:o`: the outbox, per sequence number (8 bytes big-endian) one commit's changes
///   (`SyncOperation.Entry`);
/// - `y:m`: meta values: `node` (this replica's node number), `hlc` (the clock's last
///   reading), `seq` (the next outbox number), `pos` (the download position, a PostgreSQL
///   transaction id).
package enum SyncLocalStore {
    package static let outboxTree = "y:o"
    package static let metaTree = "y:m"

    package static func clockTree(_ table: String) -> String { "y:c:" + table }
    package static func tombstoneTree(_ table: String) -> String { "y:t:" + table }

    /// The 8-byte tree key of an object key (the object store's key form: the sign bit flipped,
    /// big-endian, so the keys sort as the numbers do).
    package static func keyBytes(_ key: Int64) -> [UInt8] { withKeyBytes(key) { Array($0) } }

    /// Calls `body` with the 8-byte tree key of an object key (`keyBytes`, without an array).
    @inline(__always)
    static func withKeyBytes<T>(_ key: Int64, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var k = (UInt64(bitPattern: key) ^ 0x8000_0000_0000_0000).bigEndian
        return try withUnsafeBytes(of: &k, body)
    }

    /// The object key of an 8-byte tree key (`keyBytes` read back), or nil.
    static func objectKey(_ b: some Collection<UInt8>) -> Int64? {
        readBE(b).map { Int64(bitPattern: $0 ^ 0x8000_0000_0000_0000) }
    }

    package static func be(_ v: UInt64) -> [UInt8] {
        withUnsafeBytes(of: v.bigEndian) { Array($0) }
    }

    package static func readBE(_ b: some Collection<UInt8>) -> UInt64? {
        guard b.count == 8 else { return nil }
        return b.reduce(0) { $0 << 8 | UInt64($1) }
    }

    // MARK: Meta

    package static func meta(_ txn: StoreTransaction, _ name: String) throws -> UInt64? {
        try txn.get(Array(name.utf8), tree: metaTree).flatMap(readBE)
    }

    package static func setMeta(_ txn: StoreTransaction, _ name: String, _ value: UInt64) throws {
        try txn.put(Array(name.utf8), be(value), tree: metaTree)
    }

    // MARK: Field clocks

    /// An object's primary key text and field clocks.
    package struct Clocks: Equatable {
        package var key: String
        package var fields: [String: SyncClock]
    }

    package static func clocks(_ txn: StoreTransaction, table: String, key: Int64) throws -> Clocks? {
        guard let b = try txn.get(keyBytes(key), tree: clockTree(table)) else { return nil }
        return decodeClocks(b)
    }

    package static func setClocks(_ txn: StoreTransaction, table: String, key: Int64, _ c: Clocks) throws {
        var out: [UInt8] = []
        appendString(c.key, &out)
        appendU32(UInt32(c.fields.count), &out)
        for (name, clock) in c.fields {
            appendString(name, &out)
            out += be(clock.time)
            out += be(clock.node)
        }
        try txn.put(keyBytes(key), out, tree: clockTree(table))
    }

    /// Writes the clock record of an object whose `fields` were all written at `clock` (a new
    /// object: the same bytes as `setClocks` without building the dictionary). `scratch` holds
    /// the record while it is written (reused from object to object).
    package static func setClocks(
        _ txn: StoreTransaction, _ t: SyncTable, key: Int64, keyText: String, fields: some Collection<Int>,
        clock: SyncClock,
        scratch out: inout [UInt8]
    ) throws {
        out.removeAll(keepingCapacity: true)
        appendString(keyText, &out)
        appendU32(UInt32(fields.count), &out)
        let stamp = (clock.time.bigEndian, clock.node.bigEndian)
        for i in fields {
            out.append(contentsOf: t.clockNameBytes[i])
            withUnsafeBytes(of: stamp) { out.append(contentsOf: $0) }
        }
        try withKeyBytes(key) { kb in
            try out.withUnsafeBytes { vb in try txn.put(kb, vb, tree: t.clockTreeName) }
        }
    }

    package static func removeClocks(_ txn: StoreTransaction, table: String, key: Int64) throws {
        try txn.remove(keyBytes(key), tree: clockTree(table))
    }

    static func decodeClocks(_ b: [UInt8]) -> Clocks? {
        var i = 0
        func u32() -> UInt32? {
            guard i + 4 <= b.count else { return nil }
            defer { i += 4 }
            return b[i..<i + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func string() -> String? {
            guard let n = u32().map(Int.init), i + n <= b.count else { return nil }
            defer { i += n }
            return String(decoding: b[i..<i + n], as: UTF8.self)
        }
        func u64() -> UInt64? {
            guard i + 8 <= b.count else { return nil }
            defer { i += 8 }
            return readBE(b[i..<i + 8])
        }
        guard let key = string(), let n = u32() else { return nil }
        var fields: [String: SyncClock] = [:]
        for _ in 0..<n {
            guard let name = string(), let t = u64(), let node = u64() else { return nil }
            fields[name] = SyncClock(time: t, node: node)
        }
        return Clocks(key: key, fields: fields)
    }

    private static func appendU32(_ v: UInt32, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) }
    }

    private static func appendString(_ s: String, _ out: inout [UInt8]) {
        var s = s
        s.withUTF8 { u in
            appendU32(UInt32(u.count), &out)
            out.append(contentsOf: u)
        }
    }

    // MARK: Tombstones

    package static func tombstone(_ txn: StoreTransaction, table: String, key: String) throws -> SyncClock {
        guard let b = try txn.get(Array(key.utf8), tree: tombstoneTree(table)), b.count == 16,
            let t = readBE(b[0..<8]), let n = readBE(b[8..<16])
        else { return .zero }
        return SyncClock(time: t, node: n)
    }

    package static func setTombstone(_ txn: StoreTransaction, table: String, key: String, _ c: SyncClock) throws {
        try txn.put(Array(key.utf8), be(c.time) + be(c.node), tree: tombstoneTree(table))
    }

    // MARK: Outbox

    /// Appends one entry to the outbox; returns its sequence number.
    @discardableResult
    package static func appendOutbox(_ txn: StoreTransaction, _ entry: [UInt8]) throws -> UInt64 {
        let seq = try meta(txn, "seq") ?? 1
        try txn.put(be(seq), entry, tree: outboxTree)
        try setMeta(txn, "seq", seq + 1)
        return seq
    }

    /// Appends `entry` to the outbox (its bytes, without copying them); returns its sequence number.
    @discardableResult
    static func appendOutbox(_ txn: StoreTransaction, _ entry: SyncOperation.Entry) throws -> UInt64 {
        let seq = try meta(txn, "seq") ?? 1
        try be(seq).withUnsafeBytes { k in try txn.put(k, entry.writer.bytes, tree: outboxTree) }
        try setMeta(txn, "seq", seq + 1)
        return seq
    }

    /// Up to `limit` outbox entries from the oldest after sequence number `after`, with their
    /// sequence numbers.
    package static func outbox(
        _ txn: StoreTransaction, after: UInt64 = 0, limit: Int
    ) throws -> [(seq: UInt64, json: [UInt8])] {
        var out: [(UInt64, [UInt8])] = []
        try txn.forEach(tree: outboxTree, from: be(after + 1)) { k, v in
            if let s = readBE(k) { out.append((s, [UInt8](v))) }
            return out.count < limit
        }
        return out
    }

    /// The newest outbox sequence number, or 0 when the outbox is empty.
    package static func lastOutboxSeq(_ txn: StoreTransaction) throws -> UInt64 {
        let next = try meta(txn, "seq") ?? 1
        var first: UInt64?
        try txn.forEach(tree: outboxTree) { k, _ in
            first = readBE(k)
            return false
        }
        return first == nil ? 0 : next - 1
    }

    /// The bytes of the outbox entries after `after` (the ones not uploaded yet: progress
    /// notifications).
    package static func outboxBytes(_ txn: StoreTransaction, after: UInt64 = 0) throws -> UInt64 {
        var total: UInt64 = 0
        try txn.forEach(tree: outboxTree, from: be(after + 1)) { _, v in
            total += UInt64(v.count)
            return true
        }
        return total
    }

    /// Removes the outbox entries up to and including `seq`.
    package static func trimOutbox(_ txn: StoreTransaction, through seq: UInt64) throws {
        var keys: [[UInt8]] = []
        try txn.forEach(tree: outboxTree) { k, _ in
            guard let s = readBE(k), s <= seq else { return false }
            keys.append([UInt8](k))
            return true
        }
        for k in keys { try txn.remove(k, tree: outboxTree) }
    }
}
