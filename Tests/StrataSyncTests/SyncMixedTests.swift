import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// `AnyRealmValue` properties sync through `jsonb` columns (`SyncMixed`): every case reads back
/// as the same case and value on the other replica, SQL users see and edit plain JSON, an object
/// value is refused at the write.
final class SyncMixedTests: SyncTestCase {
    /// One value of every case the wire form distinguishes, nested ones included.
    private var samples: [AnyRealmValue] {
        [
            .none, .bool(true), .bool(false), .int(1), .int(-9_007_199_254_740_993), .int(0),
            .double(1), .double(1.5), .double(0.1 + 0.2), .double(1e-5), .double(1e300), .double(-0.0),
            .double(.nan), .double(-.infinity), .float(2.5), .float(.infinity),
            .string(""), .string("{\"$oid\": \"x\"}"), .string("ü\n"),
            .data(Data([0, 1, 255])), .date(Date(timeIntervalSince1970: 1_700_000_000.123456789)),
            .date(Date(timeIntervalSince1970: -1e11)),
            .objectId(ObjectId("0123456789abcdef01234567")),
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            .decimal128(try! Decimal128(string: "15E+1")), .decimal128(try! Decimal128(string: "-0.10")),
            AnyRealmValue.fromArray([.int(1), .string("two"), .none, .fromArray([.bool(true)])]),
            AnyRealmValue.fromDictionary(["$oid": .string("not a tag"), "n": .none, "d": .double(2)]),
        ]
    }

    /// Case and value of `v`, nested ones by their parts (a `List` or `Map` read from a property
    /// is a new copy each time, so not comparable as objects).
    private func describe(_ v: AnyRealmValue) -> String {
        switch v {
        case .list(let l): return "list[" + l.map(describe).joined(separator: ",") + "]"
        case .dictionary(let m):
            return "map{" + m.keys.sorted().map { "\($0):" + describe(m[$0] ?? .none) }.joined(separator: ",") + "}"
        case .double(let d): return "double(\(d.isNaN ? "nan" : String(d.bitPattern, radix: 16)))"
        case .float(let f): return "float(\(String(f.bitPattern, radix: 16)))"
        case .decimal128(let d): return "decimal(\(d))"
        case .date(let d): return "date(\(d.timeIntervalSince1970))"
        default: return "\(v)"
        }
    }

    @MainActor
    func testEveryCaseReadsBackAsTheSameCaseAndValue() async throws {
        let (server, db) = try freshDatabase()
        let types: [ObjectBase.Type] = [SyncAnything.self]
        let a = try await Realm(
            configuration: configuration("a", server, db, types: types), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: types), downloadBeforeOpen: .always)
        let samples = self.samples
        try a.write {
            for (i, v) in samples.enumerated() {
                let o = SyncAnything()
                o.id = i
                o.value = v
                a.add(o)
            }
            let all = SyncAnything()
            all.id = 1000
            all.values.append(objectsIn: samples)
            a.add(all)
        }
        try await sync(a, to: [b])
        for i in samples.indices {
            let x = try XCTUnwrap(a.object(ofType: SyncAnything.self, forPrimaryKey: i))
            let y = try XCTUnwrap(b.object(ofType: SyncAnything.self, forPrimaryKey: i), "object \(i) on b")
            XCTAssertEqual(describe(y.value), describe(x.value), "sample \(i)")
        }
        // The writer keeps what the server keeps: 15E+1 is 150 from the commit on.
        XCTAssertEqual(describe(a.object(ofType: SyncAnything.self, forPrimaryKey: 24)!.value), "decimal(150)")
        XCTAssertEqual(
            a.object(ofType: SyncAnything.self, forPrimaryKey: 1000)!.values.map(describe),
            b.object(ofType: SyncAnything.self, forPrimaryKey: 1000)!.values.map(describe))
        XCTAssertEqual(b.object(ofType: SyncAnything.self, forPrimaryKey: 1000)!.values.count, samples.count)

        // SQL users see JSON: plain where it reads back as the same case, tagged otherwise.
        XCTAssertEqual(
            try server.sql(
                "SELECT coalesce(value::text, 'NULL') FROM \"SyncAnything\" WHERE id IN (0, 1, 3, 7, 9, 13, 22, 24, 27) ORDER BY id",
                database: db),
            """
            NULL
            true
            1
            1.5
            {"$double": "1e-05"}
            {"$double": "-inf"}
            {"$oid": "0123456789abcdef01234567"}
            {"$decimal": "150"}
            {"$map": {"d": 2.0, "n": null, "$oid": "not a tag"}}

            """)

        // Edits in SQL reach the replicas as the JSON says.
        try server.sql(
            """
            UPDATE "SyncAnything" SET value = '"text"' WHERE id = 0;
            UPDATE "SyncAnything" SET value = '2.25' WHERE id = 1;
            UPDATE "SyncAnything" SET value = '42' WHERE id = 2;
            UPDATE "SyncAnything" SET value = '[1, {"$uuid": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}]' WHERE id = 3;
            UPDATE "SyncAnything" SET value = NULL WHERE id = 4;
            UPDATE "SyncAnything" SET value = '{"a": 1, "b": [true]}' WHERE id = 5;
            UPDATE "SyncAnything" SET value = '{"$oid": 5}' WHERE id = 6;
            UPDATE "SyncAnything" SET value = '{"$date": [1, -5]}' WHERE id = 7;
            UPDATE "SyncAnything" SET value = '{"$decimal": "1.5E+3"}' WHERE id = 8
            """, database: db)
        for r in [a, b] {
            try await wait(r, .download)
            r.refresh()
            let v = { (i: Int) in self.describe(r.object(ofType: SyncAnything.self, forPrimaryKey: i)!.value) }
            XCTAssertEqual(v(0), describe(.string("text")))
            XCTAssertEqual(v(1), describe(.double(2.25)))
            XCTAssertEqual(v(2), describe(.int(42)))
            XCTAssertEqual(
                v(3), describe(.fromArray([.int(1), .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)])))
            XCTAssertEqual(v(4), describe(.none))
            // Objects that are not tags (or tags with a payload that is not theirs) read as
            // dictionaries: no replica's download stalls on them.
            XCTAssertEqual(v(5), describe(.fromDictionary(["a": .int(1), "b": .fromArray([.bool(true)])])))
            XCTAssertEqual(v(6), describe(.fromDictionary(["$oid": .int(5)])))
            XCTAssertEqual(v(7), describe(.fromDictionary(["$date": .fromArray([.int(1), .int(-5)])])))
            XCTAssertEqual(v(8), "decimal(1500)")
        }
    }

    /// An AnyRealmValue holding an object does not sync yet: the write fails with an error
    /// naming the property, and nothing of it is committed.
    @MainActor
    func testAnObjectValueFailsTheWrite() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncAnything.self, SyncDog.self]),
            downloadBeforeOpen: .always)
        XCTAssertThrowsError(
            try a.write {
                let dog = SyncDog(value: ["id": 1, "name": "Rex"])
                a.add(dog)
                let o = SyncAnything()
                o.id = 1
                o.value = .object(dog)
                a.add(o)
            }
        ) { error in
            XCTAssertTrue("\(error)".contains("SyncAnything.value"), "\(error)")
        }
        XCTAssertEqual(a.objects(SyncAnything.self).count, 0)
        XCTAssertEqual(a.objects(SyncDog.self).count, 0)
        XCTAssertThrowsError(
            try a.write {
                let o = SyncAnything()
                o.id = 2
                o.values.append(.object(SyncDog(value: ["id": 2])))
                a.add(o)
            })
        // Lists nested deeper than SyncMixed.maxNesting fail the write too (no replica could
        // read the row back); at the limit they sync.
        func nested(_ depth: Int) -> AnyRealmValue {
            var v = AnyRealmValue.int(depth)
            for _ in 0..<depth { v = .fromArray([v]) }
            return v
        }
        XCTAssertThrowsError(
            try a.write {
                let o = SyncAnything()
                o.id = 4
                o.value = nested(SyncMixed.maxNesting + 1)
                a.add(o)
            }
        ) { error in XCTAssertTrue("\(error)".contains("deep"), "\(error)") }
        try a.write {
            let o = SyncAnything()
            o.id = 3
            o.value = .string("fine")
            a.add(o)
            let deep = SyncAnything()
            deep.id = 5
            deep.value = nested(SyncMixed.maxNesting)
            a.add(deep)
        }
        try await wait(a, .upload)
        XCTAssertEqual(
            try server.sql("SELECT id, left(value::text, 12) FROM \"SyncAnything\" ORDER BY id", database: db),
            "3|\"fine\"\n5|[[[[[[[[[[[[\n")
        let b = try await Realm(
            configuration: configuration("b", server, db, types: [SyncAnything.self, SyncDog.self]),
            downloadBeforeOpen: .always)
        XCTAssertEqual(
            describe(try XCTUnwrap(b.object(ofType: SyncAnything.self, forPrimaryKey: 5)).value),
            describe(nested(SyncMixed.maxNesting)))
    }
}
