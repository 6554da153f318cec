import Foundation
import Strata
import XCTest

/// `strata schema` and `strata dump` on a file written by an app, without the app's models.
final class SchemaAndDumpCommandTests: ToolTestCase {
    func testSchemaListsTheStoredTypesAndProperties() throws {
        try makeAppFile()
        let run = try strata(["schema", path("app.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("ToolDog: 3 objects"), run.stdout)
        XCTAssertTrue(run.stdout.contains("ToolOwner: 2 objects"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  age: int [indexed]"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  weight: double?"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  id: string [primary key]"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  dogs: List<ToolDog>"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  favorite: ToolDog"), run.stdout)
    }

    func testDumpPrintsEveryObjectAsAJSONLine() throws {
        try makeAppFile()
        let run = try strata(["dump", path("app.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let objects = try run.lines.map(json)
        XCTAssertEqual(objects.count, 5)
        let dogs = objects.filter { $0["_type"] as? String == "ToolDog" }
        XCTAssertEqual(Set(dogs.compactMap { $0["name"] as? String }), ["Rex", "Fido", "Ace \"the\" dog"])
        let rex = try XCTUnwrap(dogs.first { $0["name"] as? String == "Rex" })
        XCTAssertEqual(rex["age"] as? Int, 3)
        XCTAssertEqual(rex["weight"] as? Double, 12.5)
        XCTAssertEqual(rex["born"] as? String, "2023-11-14T22:13:20.250000000Z")
        XCTAssertEqual(rex["photo"] as? String, Data([1, 2, 3]).base64EncodedString())
        XCTAssertEqual(rex["tags"] as? [String], ["good", "loud"])
        XCTAssertTrue(dogs.first { $0["name"] as? String == "Fido" }?["weight"] is NSNull)
        // Links are the linked objects' keys.
        let ada = try XCTUnwrap(objects.first { $0["id"] as? String == "ada" })
        let fidoKey = try XCTUnwrap(dogs.first { $0["name"] as? String == "Fido" }?["_key"] as? Int)
        XCTAssertEqual(ada["dogs"] as? [Int], [try XCTUnwrap(rex["_key"] as? Int), fidoKey])
        XCTAssertEqual(ada["favorite"] as? Int, rex["_key"] as? Int)
        XCTAssertEqual(ada["extra"] as? String, "note")
        XCTAssertEqual(objects.first { $0["id"] as? String == "bob" }?["extra"] as? Int, 42)
        // Piped output carries no progress display.
        XCTAssertEqual(run.stderr, "")
    }

    func testDumpWithTypeWhereAndLimitSelectsObjects() throws {
        try makeAppFile()
        let older = try strata(["dump", path("app.realm"), "--type", "ToolDog", "--where", "age > 2"])
        XCTAssertEqual(older.status, 0, older.stderr)
        XCTAssertEqual(Set(try older.lines.map { try json($0)["name"] as? String }), ["Rex", "Fido"])
        let one = try strata(["dump", path("app.realm"), "--type", "ToolDog", "--limit", "1"])
        XCTAssertEqual(one.lines.count, 1)
        let limitedQuery = try strata([
            "dump", path("app.realm"), "--type", "ToolDog", "--where", "age > 0", "--limit", "2",
        ])
        XCTAssertEqual(limitedQuery.lines.count, 2)
    }

    func testDumpRefusesAnUnknownTypeAndABadQuery() throws {
        try makeAppFile()
        let unknown = try strata(["dump", path("app.realm"), "--type", "Cat"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("No type named 'Cat'"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("ToolDog"), unknown.stderr)
        let bad = try strata(["dump", path("app.realm"), "--type", "ToolDog", "--where", "age >"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("not valid"), bad.stderr)
        let noType = try strata(["dump", path("app.realm"), "--where", "age > 1"])
        XCTAssertNotEqual(noType.status, 0)
        XCTAssertTrue(noType.stderr.contains("--where needs --type"), noType.stderr)
    }

    func testMissingFileIsAClearError() throws {
        let run = try strata(["schema", path("nothing.realm")])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("no such file"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("nothing.realm")))
    }

    func testHelpOfEachCommandFollowsArgumentParsersForm() throws {
        for command in ["schema", "dump", "import", "verify", "compact", "stats", "copy", "upgrade"] {
            let run = try strata([command, "--help"])
            XCTAssertEqual(run.status, 0, command)
            XCTAssertTrue(run.stdout.contains("USAGE: strata \(command)"), run.stdout)
            XCTAssertTrue(run.stdout.contains("OVERVIEW:"), run.stdout)
        }
    }
}
