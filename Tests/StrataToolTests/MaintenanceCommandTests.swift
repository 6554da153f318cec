import Foundation
import Strata
import XCTest

/// `strata import`, `compact`, `copy`, `stats` and `upgrade`, checked through the Realm API.
final class MaintenanceCommandTests: ToolTestCase {
    func testImportAddsObjectsTheAppReads() throws {
        try makeAppFile()
        let lines = """
            {"name": "Imported", "age": 9, "weight": 3.5, "born": "2024-05-01T12:00:00.5Z", "tags": ["a"]}
            {"name": "Plain"}
            """
        let run = try strata(["import", path("app.realm"), "--type", "ToolDog"], input: lines)
        XCTAssertEqual(run.status, 0, run.stderr)
        let realm = try Realm(configuration: configuration())
        let imported = try XCTUnwrap(realm.objects(ToolDog.self).where { $0.name == "Imported" }.first)
        XCTAssertEqual(imported.age, 9)
        XCTAssertEqual(imported.weight, 3.5)
        XCTAssertEqual(imported.born, Date(timeIntervalSince1970: 1_714_564_800.5))
        XCTAssertEqual(Array(imported.tags), ["a"])
        XCTAssertEqual(realm.objects(ToolDog.self).where { $0.name == "Plain" }.first?.age, 0)
        // The index of `age` knows the new object.
        XCTAssertEqual(realm.objects(ToolDog.self).where { $0.age == 9 }.map(\.name), ["Imported"])
    }

    /// A dump of one file imported into another gives the same objects (links by key).
    func testDumpedDogsImportIntoAnotherFile() throws {
        try makeAppFile()
        _ = try Realm(configuration: configuration("other.realm"))
        let dump = try strata(["dump", path("app.realm"), "--type", "ToolDog"])
        let run = try strata(["import", path("other.realm"), "--type", "ToolDog"], input: dump.stdout)
        XCTAssertEqual(run.status, 0, run.stderr)
        let other = try Realm(configuration: configuration("other.realm"))
        XCTAssertEqual(Set(other.objects(ToolDog.self).map(\.name)), ["Rex", "Fido", "Ace \"the\" dog"])
        XCTAssertEqual(other.objects(ToolDog.self).where { $0.name == "Rex" }.first?.photo, Data([1, 2, 3]))
    }

    func testImportWithABadLineAddsNothingAndNamesTheLine() throws {
        try makeAppFile()
        let cases: [(String, String)] = [
            ("{\"name\": \"ok\"}\n{\"name\": 5}", "Line 2"),
            ("{\"nmae\": \"typo\"}", "no property 'nmae'"),
            ("{\"name\": \"x\"}\nnot json", "Line 2 is not valid JSON"),
        ]
        for (input, expected) in cases {
            let run = try strata(["import", path("app.realm"), "--type", "ToolDog"], input: input)
            XCTAssertNotEqual(run.status, 0, input)
            XCTAssertTrue(run.stderr.contains(expected), "\(input): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("Nothing was imported"), run.stderr)
        }
        let duplicate = try strata(["import", path("app.realm"), "--type", "ToolOwner"], input: "{\"id\": \"ada\"}")
        XCTAssertNotEqual(duplicate.status, 0)
        let dangling = try strata(
            ["import", path("app.realm"), "--type", "ToolOwner"], input: "{\"id\": \"cy\", \"favorite\": 999}")
        XCTAssertNotEqual(dangling.status, 0)
        XCTAssertTrue(dangling.stderr.contains("does not exist"), dangling.stderr)
        let realm = try Realm(configuration: configuration())
        XCTAssertEqual(realm.objects(ToolDog.self).count, 3)
        XCTAssertEqual(realm.objects(ToolOwner.self).count, 2)
    }

    func testCompactShrinksAFileThatLostMostOfItsObjects() throws {
        try {
            let realm = try Realm(configuration: configuration())
            try realm.write {
                for i in 0..<4000 {
                    realm.add(ToolDog(value: ["name": String(repeating: "n", count: 150) + "\(i)", "age": i]))
                }
            }
            try realm.write { realm.delete(realm.objects(ToolDog.self).where { $0.age >= 100 }) }
        }()
        let before = try fileSize("app.realm")
        let run = try strata(["compact", path("app.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let after = try fileSize("app.realm")
        XCTAssertLessThan(after * 2, before, run.stdout)
        XCTAssertTrue(run.stdout.contains("\(before) -> \(after) bytes"), run.stdout)
        let realm = try Realm(configuration: configuration())
        XCTAssertEqual(realm.objects(ToolDog.self).count, 100)
        XCTAssertEqual(realm.objects(ToolDog.self).where { $0.age == 99 }.count, 1)
    }

    func testCopyWritesACopyTheAppOpens() throws {
        try makeAppFile()
        let run = try strata(["copy", path("app.realm"), path("copy.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        let copy = try Realm(configuration: configuration("copy.realm"))
        XCTAssertEqual(copy.object(ofType: ToolOwner.self, forPrimaryKey: "ada")?.dogs.map(\.name), ["Rex", "Fido"])
        let again = try strata(["copy", path("app.realm"), path("copy.realm")])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("already exists"), again.stderr)
    }

    func testStatsShowsSizeFreeSpaceAndPagesPerType() throws {
        try makeAppFile()
        let realm = try Realm(configuration: configuration())
        _ = realm.objects(ToolDog.self).count  // this process's realm pins a version
        let run = try strata(["stats", path("app.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("size: \(try fileSize("app.realm")) bytes, page size 8192"), run.stdout)
        XCTAssertTrue(run.stdout.contains("ToolDog: "), run.stdout)
        XCTAssertTrue(
            run.stdout.contains("  objects: 1 pages (1 leaf, 0 branch, 0 overflow), 1 entries, depth 1"), run.stdout)
        XCTAssertTrue(run.stdout.contains("  index age: "), run.stdout)
        XCTAssertTrue(run.stdout.contains("  primary key: "), run.stdout)
        XCTAssertTrue(
            run.stdout.contains("reader: process \(ProcessInfo.processInfo.processIdentifier), pins version"),
            run.stdout)
    }

    func testUpgradeConvertsAFirstFormatFile() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Formats/format1-rows.realm")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path("old.realm"))
        let before = try strata(["schema", path("old.realm")])
        XCTAssertTrue(before.stdout.contains("format version 1"), before.stdout)
        let run = try strata(["upgrade", path("old.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("format version 1 -> 3"), run.stdout)
        XCTAssertTrue(run.stdout.contains("converted to clusters"), run.stdout)
        let after = try strata(["schema", path("old.realm")])
        XCTAssertTrue(after.stdout.contains("format version 3"), after.stdout)
        XCTAssertEqual(try strata(["verify", path("old.realm")]).status, 0)
        let again = try strata(["upgrade", path("old.realm")])
        XCTAssertTrue(again.stdout.contains("nothing to do"), again.stdout)
        // The converted objects read back: as many objects dumped as the schema counts.
        let dump = try strata(["dump", path("old.realm")])
        XCTAssertGreaterThan(dump.lines.count, 0)
    }

    func testUpgradeOfAFormat2FileChangesOnlyItsNumber() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Formats/format2.realm")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path("two.realm"))
        let dumpBefore = try strata(["dump", path("two.realm")])
        XCTAssertTrue(try strata(["schema", path("two.realm")]).stdout.contains("format version 2"))
        let run = try strata(["upgrade", path("two.realm")])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("format version 2 -> 3"), run.stdout)
        XCTAssertTrue(try strata(["schema", path("two.realm")]).stdout.contains("format version 3"))
        XCTAssertEqual(try strata(["verify", path("two.realm")]).status, 0)
        XCTAssertEqual(try strata(["dump", path("two.realm")]).stdout, dumpBefore.stdout)
    }
}
