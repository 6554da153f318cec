import Foundation
import Observation
import Strata
import StrataStorage

/// W1 on Strata's object layer (`import Strata`), through the public, RealmSwift-style API only:
/// `Realm(configuration:)`, `realm.write { }`, `realm.add(_:)`, `object(ofType:forPrimaryKey:)`,
/// `objects(_:)` and `@Persisted` property access on the `W1Person` model (W1Models.swift).
/// Written the way a Realm user writes it; no reach below the public API.
final class StrataEngine: W1Engine {
    static let name = "strata"
    static let durability =
        "object layer on the copy-on-write B+tree; each realm.write commits with Durability.full (one fdatasync per commit)"
    static let fileExtension = "realm"
    static func files(at path: String) -> [String] { [path, path + ".lock"] }

    let path: String
    /// The key of an encrypted file (the `strata-encrypted` engine), else nil.
    let encryptionKey: Data?
    /// Released by `close()`; the file closes when its last realm goes away.
    private var realmStorage: Realm?
    private let tracksGets: Bool
    private var realm: Realm { realmStorage! }

    convenience init(path: String) throws {
        try self.init(path: path, encryptionKey: nil)
    }

    init(path: String, encryptionKey: Data?) throws {
        self.path = path
        self.encryptionKey = encryptionKey
        // STRATA_BENCH_OBSERVATION=1 measures the steps with reads registering with Observation
        // (Realm.isObservationTrackingEnabled), as in a process that uses the property wrappers;
        // =tracked also reads each point_get object inside a `withObservationTracking` of its own,
        // as a view body does. getenv, not ProcessInfo's environment dictionary: that builds a
        // dictionary of every variable (~0.8M instructions) inside the timed open of open_first_read.
        let observation = getenv("STRATA_BENCH_OBSERVATION").map { String(cString: $0) }
        if observation == "1" || observation == "tracked" {
            Realm.isObservationTrackingEnabled = true
        }
        tracksGets = observation == "tracked"
        let config = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), encryptionKey: encryptionKey, objectTypes: [W1Person.self])
        realmStorage = try Realm(configuration: config)
    }

    /// An unmanaged W1Person holding `p`'s values.
    @inline(__always)
    static func makePerson(_ p: Person) -> W1Person {
        let o = W1Person()
        o.id = p.id
        o.name = p.name
        o.age = p.age
        o.score = p.score
        return o
    }

    func bulkInsert(_ people: [Person]) throws {
        let realm = self.realm
        try realm.write {
            for p in people { realm.add(Self.makePerson(p)) }
        }
    }

    func insertOne(_ p: Person) throws {
        let realm = self.realm
        try realm.write {
            realm.add(Self.makePerson(p))
        }
    }

    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws {
        let realm = self.realm
        var c = checksum
        for id in ids {
            guard let o = realm.object(ofType: W1Person.self, forPrimaryKey: id) else {
                throw W1Error.missing("id \(id) missing")
            }
            if tracksGets {
                withObservationTracking {
                    c.add(name: o.name, age: o.age)
                } onChange: {
                }
            } else {
                c.add(name: o.name, age: o.age)
            }
        }
        checksum = c
    }

    func scanFilter() throws -> (count: Int, scoreSum: Double) {
        // The Realm way: a typed query, then the count and the sum, each one pass over the rows
        // (no objects are created).
        let matches = realm.objects(W1Person.self).where { $0.age > 50 }
        return (matches.count, matches.sum(ofProperty: "score"))
    }

    func updateAges(_ ids: [Int64]) throws {
        let realm = self.realm
        try realm.write {
            for id in ids {
                guard let o = realm.object(ofType: W1Person.self, forPrimaryKey: id) else {
                    throw W1Error.missing("id \(id) missing")
                }
                o.age += 1
            }
        }
    }

    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool {
        guard let o = realm.object(ofType: W1Person.self, forPrimaryKey: id) else { return false }
        checksum.add(name: o.name, age: o.age)
        return true
    }

    func notes(for step: W1Step) -> [String: Any] {
        let model =
            "final class W1Person: Object { @Persisted(primaryKey: true) var id: Int64; @Persisted var name: String; @Persisted var age: Int64; @Persisted var score: Double }"
        var n: [String: Any] = ["api": "import Strata (object layer, public API only)", "model": model]
        switch step {
        case .bulkInsert:
            n["how"] =
                "one realm.write { for p in people { realm.add(W1Person(...)) } }, shuffled id order; each object built unmanaged (4 @Persisted sets) then added"
        case .smallTxn: n["how"] = "realm.write { realm.add(W1Person(...)) } per object"
        case .pointGet:
            n["how"] =
                "realm.object(ofType: W1Person.self, forPrimaryKey: id) per id, reading o.name (String) and o.age; no explicit transaction (the realm's read snapshot)"
        case .scanFilter:
            n["how"] =
                "let r = realm.objects(W1Person.self).where { $0.age > 50 }; r.count; r.sum(ofProperty: \"score\") (two passes over the rows, no objects created)"
        case .update: n["how"] = "one realm.write { for id in ids { realm.object(ofType:forPrimaryKey:)!.age += 1 } }"
        case .openFirstRead:
            n["how"] =
                "try Realm(configuration: .init(fileURL:, objectTypes: [W1Person.self])) + object(ofType:forPrimaryKey:) reading name and age"
        }
        return n
    }

    /// Not timed: how much of the (preallocated, grown in 50% steps) file is in use, read through
    /// a second storage handle with `verify()`, which the Realm API does not offer.
    func afterStep() throws -> [String: Any] {
        var options = Database.Options()
        options.encryptionKey = encryptionKey.map { [UInt8]($0) }
        let db = try Database(path: path, options: options)
        defer { db.close() }
        let r = try db.verify()
        return [
            "in_use_bytes": r.pageCount * db.pageSize, "tree_pages": r.treePages, "free_pages": r.freePages,
            "verify": r.leakedPages.isEmpty ? "ok" : "leaked \(r.leakedPages.count) pages",
        ]
    }

    func fileBytes() -> (bytes: Int64, what: String) {
        (w1FileSize(path), "data file; .lock not counted")
    }

    func close() throws {
        realmStorage = nil
    }
}
