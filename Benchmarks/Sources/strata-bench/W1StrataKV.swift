import Foundation
import StrataStorage

/// W1 on Strata's storage engine alone (`StrataStorage`), NOT the object layer: each Person is
/// one entry in the tree "person", key = the id as 8 big-endian bytes (so key order = id order),
/// value = age (Int64, 8 bytes LE) + score (Double bits, 8 bytes LE) + name (UTF-8, the rest).
/// Fixed-offset fields first, so reading age or score needs no parsing.
final class StrataKVEngine: W1Engine {
    static let name = "strata-kv"
    static let durability = "copy-on-write B+tree, Durability.full: one fdatasync per commit"
    static let fileExtension = "strata"
    static func files(at path: String) -> [String] { [path, path + ".lock"] }

    let db: Database
    let path: String
    /// Scratch for one key and one value (names are at most 20 bytes).
    let key = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    let value = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    static let tree = "person"

    init(path: String) throws {
        self.path = path
        db = try Database(path: path)
    }

    deinit {
        key.deallocate()
        value.deallocate()
    }

    @inline(__always)
    var keyBuffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: key, count: 8) }

    @inline(__always)
    func setKey(_ id: Int64) { key.storeBytes(of: UInt64(bitPattern: id).bigEndian, as: UInt64.self) }

    /// Encodes `p` into `value`; returns the value's length.
    @inline(__always)
    func encode(_ p: Person) -> Int {
        value.storeBytes(of: UInt64(bitPattern: p.age).littleEndian, as: UInt64.self)
        value.storeBytes(of: p.score.bitPattern.littleEndian, toByteOffset: 8, as: UInt64.self)
        var name = p.name
        return name.withUTF8 { u in
            precondition(u.count <= 48)
            (value + 16).copyMemory(from: u.baseAddress!, byteCount: u.count)
            return 16 + u.count
        }
    }

    @inline(__always)
    static func age(_ v: UnsafeRawBufferPointer) -> Int64 {
        Int64(bitPattern: UInt64(littleEndian: v.loadUnaligned(as: UInt64.self)))
    }
    @inline(__always)
    static func score(_ v: UnsafeRawBufferPointer) -> Double {
        Double(bitPattern: UInt64(littleEndian: v.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
    @inline(__always)
    static func name(_ v: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: v[16...])
    }

    func bulkInsert(_ people: [Person]) throws {
        try db.write { txn in
            let t = try txn.openTree(Self.tree, create: true)
            for p in people {
                setKey(p.id)
                let len = encode(p)
                try txn.put(keyBuffer, UnsafeRawBufferPointer(start: value, count: len), in: t)
            }
        }
    }

    func insertOne(_ p: Person) throws {
        try db.write { txn in
            let t = try txn.openTree(Self.tree)
            setKey(p.id)
            let len = encode(p)
            try txn.put(keyBuffer, UnsafeRawBufferPointer(start: value, count: len), in: t)
        }
    }

    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws {
        try db.read { r in
            guard let t = try r.tree(named: Self.tree) else { throw W1Error.missing("tree \(Self.tree) missing") }
            for id in ids {
                setKey(id)
                guard let v = try r.get(keyBuffer, in: t) else { throw W1Error.missing("id \(id) missing") }
                checksum.add(name: Self.name(v), age: Self.age(v))
            }
        }
    }

    func scanFilter() throws -> (count: Int, scoreSum: Double) {
        try db.read { r in
            guard let t = try r.tree(named: Self.tree) else { throw W1Error.missing("tree \(Self.tree) missing") }
            var count = 0
            var sum = 0.0
            try r.forEach(in: t) { _, v in
                if Self.age(v) > 50 {
                    count += 1
                    sum += Self.score(v)
                }
                return true
            }
            return (count, sum)
        }
    }

    func updateAges(_ ids: [Int64]) throws {
        try db.write { txn in
            let t = try txn.openTree(Self.tree)
            for id in ids {
                setKey(id)
                guard let v = try txn.get(keyBuffer, in: t) else { throw W1Error.missing("id \(id) missing") }
                // The value points into the map and is invalid after the put: copy, then change.
                let len = v.count
                value.copyMemory(from: v.baseAddress!, byteCount: len)
                let age = Self.age(UnsafeRawBufferPointer(start: value, count: len))
                value.storeBytes(of: UInt64(bitPattern: age + 1).littleEndian, as: UInt64.self)
                try txn.put(keyBuffer, UnsafeRawBufferPointer(start: value, count: len), in: t)
            }
        }
    }

    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool {
        try db.read { r in
            guard let t = try r.tree(named: Self.tree) else { return false }
            setKey(id)
            guard let v = try r.get(keyBuffer, in: t) else { return false }
            checksum.add(name: Self.name(v), age: Self.age(v))
            return true
        }
    }

    func notes(for step: W1Step) -> [String: Any] {
        switch step {
        case .scanFilter: return ["how": "full ordered scan (forEach), filter and sum in Swift"]
        case .pointGet: return ["how": "one read transaction; get by 8-byte key, name bytes read in place (no String)"]
        case .update: return ["how": "get, copy value, bump age, put; one write transaction"]
        case .smallTxn: return ["how": "db.write { openTree; put } per object"]
        case .bulkInsert: return ["how": "one db.write, put per object in shuffled id order"]
        case .openFirstRead: return ["how": "Database(path:) + read { tree(named:); get }"]
        }
    }

    /// Not timed: `verify()` checks every page of the newest version and tells how much of the
    /// (preallocated, grown in 50% steps) file is in use.
    func afterStep() throws -> [String: Any] {
        let r = try db.verify()
        return [
            "in_use_bytes": r.pageCount * db.pageSize, "tree_pages": r.treePages, "free_pages": r.freePages,
            "tree_depth": r.depths[Self.tree] ?? 0,
            "verify": r.leakedPages.isEmpty ? "ok" : "leaked \(r.leakedPages.count) pages",
        ]
    }

    func fileBytes() -> (bytes: Int64, what: String) {
        (w1FileSize(path), "data file; .lock not counted")
    }

    func close() throws { db.close() }
}

/// The file's length, or with `allocated` the bytes of disk it occupies (st_blocks * 512).
func w1FileSize(_ path: String, allocated: Bool = false) -> Int64 {
    var st = stat()
    guard stat(path, &st) == 0 else { return 0 }
    return allocated ? Int64(st.st_blocks) * 512 : Int64(st.st_size)
}
