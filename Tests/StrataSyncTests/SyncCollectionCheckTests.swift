import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// A synced collection's `jsonb` column refuses, where it is written, what the replicas could
/// not read back as the model's collection (SyncCollectionCheck): before, such an SQL edit was
/// accepted and every replica's download stopped at the row.
final class SyncCollectionCheckTests: SyncTestCase {
    private static let types: [ObjectBase.Type] = [SyncBag.self, SyncLedger.self, SyncPerson.self, SyncDog.self]

    /// Asserts that `statement` fails on the server with an error naming `constraint`.
    private func refused(
        _ server: PostgresTestServer, _ db: String, _ statement: String, constraint: String,
        line: UInt = #line
    ) {
        do {
            _ = try server.sql(statement, database: db)
            XCTFail("accepted: \(statement)", line: line)
        } catch {
            XCTAssertTrue(
                "\(error)".contains("violates check constraint \"\(constraint)\""), "\(statement): \(error)",
                line: line)
        }
    }

    @MainActor
    func testSQLWritesOfCollectionsTheReplicasCouldNotReadAreRefused() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: Self.types), downloadBeforeOpen: .always)
        try a.write {
            let bag = SyncBag()
            bag.id = 1
            bag.scores.insert(1)
            a.add(bag)
            a.add(SyncLedger(value: ["id": 1]))
            let dog = SyncDog(value: ["id": 7, "name": "Rex"])
            a.add(SyncPerson(value: ["id": "p", "dogs": [dog]]))
        }
        try await wait(a, .upload)

        let bag = "UPDATE \"SyncBag\" SET"
        let bad: [(String, String)] = [
            ("\(bag) scores = '[\"five\"]'", "strata_SyncBag_scores:[int]"),
            ("\(bag) scores = '[1.5]'", "strata_SyncBag_scores:[int]"),
            ("\(bag) scores = '[null]'", "strata_SyncBag_scores:[int]"),
            ("\(bag) scores = '[true]'", "strata_SyncBag_scores:[int]"),
            ("\(bag) scores = '[9223372036854775808]'", "strata_SyncBag_scores:[int]"),
            ("\(bag) scores = '{\"a\": 1}'", "strata_SyncBag_scores:[int]"),
            ("\(bag) tags = '[1]'", "strata_SyncBag_tags:[string]"),
            ("\(bag) tags = '[[\"nested\"]]'", "strata_SyncBag_tags:[string]"),
            ("\(bag) days = '[\"2020-01-01\"]'", "strata_SyncBag_days:[date]"),
            ("\(bag) labels = '[\"a\"]'", "strata_SyncBag_labels:{string?}"),
            ("\(bag) labels = '{\"a\": 1}'", "strata_SyncBag_labels:{string?}"),
            ("\(bag) blobs = '[\"xyz\"]'", "strata_SyncBag_blobs:[data]"),
            ("\(bag) blobs = '[\"0\"]'", "strata_SyncBag_blobs:[data]"),
            ("\(bag) weights = '[\"1.5\"]'", "strata_SyncBag_weights:[double?]"),
            ("\(bag) weights = '[false]'", "strata_SyncBag_weights:[double?]"),
            ("UPDATE \"SyncLedger\" SET history = '[\"abc\"]'", "strata_SyncLedger_history:[decimal]"),
            ("UPDATE \"SyncLedger\" SET limits = '{\"a\": \"1e\"}'", "strata_SyncLedger_limits:{decimal?}"),
            ("UPDATE \"SyncPerson\" SET dogs = '[\"seven\"]'", "strata_SyncPerson_dogs:[int]"),
            ("UPDATE \"SyncPerson\" SET pets = '{\"a\": {\"id\": 7}}'", "strata_SyncPerson_pets:{int?}"),
        ]
        for (statement, constraint) in bad { refused(server, db, statement, constraint: constraint) }

        // What the replicas read is accepted, and arrives.
        try server.sql(
            """
            \(bag) scores = '[1, 9223372036854775807, -9223372036854775808, 2.0]',
                labels = '{"a": null, "b": "x"}', weights = '[null, "NaN", "-0.0", 1e-5, 3]',
                blobs = '["00ff", "00FF", ""]', days = '[0, 1000000]' WHERE id = 1
            """, database: db)
        try server.sql(
            """
            UPDATE "SyncLedger" SET history = '["1.10", 2, ".5", "5.", "-3e5", "NaN", "Infinity", "-Infinity"]',
                limits = '{"x": null, "y": "2.50"}' WHERE id = 1
            """, database: db)
        try server.sql("UPDATE \"SyncPerson\" SET dogs = '[7, 8]', pets = '{\"a\": 7, \"b\": null}'", database: db)
        try await wait(a, .download)
        a.refresh()
        let b = try XCTUnwrap(a.object(ofType: SyncBag.self, forPrimaryKey: 1))
        XCTAssertEqual(Set(b.scores), [1, 2, .max, .min])
        XCTAssertEqual(b.labels["a"], .some(nil))
        XCTAssertEqual(b.labels["b"], .some("x"))
        XCTAssertEqual(b.weights.count, 5)
        XCTAssertNil(b.weights[0])
        XCTAssertTrue(b.weights[1]!.isNaN)
        XCTAssertEqual(b.weights[2]!.sign, .minus)
        XCTAssertEqual(Array(b.weights[3...]), [1e-5, 3])
        XCTAssertEqual(Array(b.blobs), [Data([0, 255]), Data([0, 255]), Data()])
        XCTAssertEqual(b.days.map(\.timeIntervalSince1970), [0, 1])
        let ledger = try XCTUnwrap(a.object(ofType: SyncLedger.self, forPrimaryKey: 1))
        XCTAssertEqual(
            Array(ledger.history),
            try ["1.10", "2", "0.5", "5", "-3e5", "NaN", "Infinity", "-Infinity"].map { try Decimal128(string: $0) })
        XCTAssertEqual(ledger.limits["y"], .some(try Decimal128(string: "2.50")))
        let person = try XCTUnwrap(a.object(ofType: SyncPerson.self, forPrimaryKey: "p"))
        XCTAssertEqual(person.dogs.map(\.id), [7])  // dog 8 does not exist: kept unresolved
        XCTAssertEqual(person.pets["a"]??.id, 7)
        XCTAssertNil(a.syncSession?.lastError, "no download error")
    }

    /// A constraint left by a model whose collection held another element type is replaced by
    /// the next replica that prepares the schema; an `AnyRealmValue` collection has none.
    @MainActor
    func testAnotherModelsConstraintIsReplaced() async throws {
        let (server, db) = try freshDatabase()
        _ = try await Realm(
            configuration: configuration("a", server, db, types: [SyncBag.self, SyncAnything.self]),
            downloadBeforeOpen: .always)
        let names =
            "SELECT string_agg(conname, ' ' ORDER BY conname) FROM pg_constraint WHERE conname LIKE 'strata_SyncBag_tags%'"
        XCTAssertEqual(try server.sql(names, database: db), "strata_SyncBag_tags:[string]\n")
        // As an older model with a List<Int> would have left it.
        try server.sql("ALTER TABLE \"SyncBag\" DROP CONSTRAINT \"strata_SyncBag_tags:[string]\"", database: db)
        try server.sql(
            "ALTER TABLE \"SyncBag\" ADD CONSTRAINT \"strata_SyncBag_tags:[int]\" CHECK (true) NOT VALID", database: db)
        try server.sql("UPDATE strata_schema SET fingerprint = 'other'", database: db)
        await SyncEngine.stopAll()
        _ = try await Realm(
            configuration: configuration("b", server, db, types: [SyncBag.self]), downloadBeforeOpen: .always)
        XCTAssertEqual(try server.sql(names, database: db), "strata_SyncBag_tags:[string]\n")
        XCTAssertEqual(
            try server.sql(
                "SELECT count(*) FROM pg_constraint WHERE conname LIKE 'strata_SyncAnything%'", database: db),
            "0\n")
    }

    /// Names and shapes (no server).
    func testConstraintNames() {
        XCTAssertEqual(SyncCollectionCheck.constraintPrefix(table: "Bag", column: "tags"), "strata_Bag_tags:")
        let long = SyncCollectionCheck.constraintPrefix(
            table: "AVeryLongModelNameIndeed", column: "aPropertyWithALongName")
        XCTAssertTrue(long.hasPrefix("strata_") && long.hasSuffix(":") && long.utf8.count <= 40, long)
        XCTAssertLessThanOrEqual((long + "{objectId?}").utf8.count, 63)
    }
}
