import Foundation
import StrataSchemaKit
import XCTest

/// Recording versions with stable ids, and the migration steps between them.
final class SchemaHistoryTests: XCTestCase {
    private let v1 = """
        final class Dog: Object {
            @Persisted(primaryKey: true) var _id: ObjectId
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var color: String?
            @Persisted var chipNumber = 0
        }
        final class Kennel: Object {
            @Persisted var city = ""
        }
        """

    private func record(_ sources: [String], file: StaticString = #filePath, line: UInt = #line) -> SchemaHistory? {
        var history: SchemaHistory?
        for source in sources {
            let result = SchemaCompiler.update(inputs: Fixtures.inputs(["Models.swift": source]), history: history)
            XCTAssertEqual(result.diagnostics.map(\.description), [], file: file, line: line)
            history = result.history
        }
        return history
    }

    func testFirstUpdateRecordsVersionOneWithIds() throws {
        let history = try XCTUnwrap(record([v1]))
        XCTAssertEqual(history.versions.map(\.version), [1])
        let dog = try XCTUnwrap(history.latest?.types.first)
        XCTAssertEqual(dog.name, "Dog")
        XCTAssertEqual(dog.properties.map(\.name), ["_id", "name", "age", "color", "chipNumber"])
        XCTAssertEqual(Set(dog.properties.map(\.id)).count, 5, "distinct ids")
        XCTAssertEqual(history.nextId, 9, "Dog, 5 properties, Kennel, 1 property")
    }

    func testUnchangedModelsRecordNoNewVersion() throws {
        var history = try XCTUnwrap(record([v1]))
        let result = SchemaCompiler.update(
            inputs: Fixtures.inputs(["Models.swift": v1 + "\n// a comment\n"]), history: history)
        XCTAssertFalse(result.added)
        history = try XCTUnwrap(result.history)
        XCTAssertEqual(history.versions.count, 1)
    }

    func testRenameAddRemoveAndTypeChangeBecomeSteps() throws {
        let v2 = """
            final class Dog: Object {
                @Persisted(primaryKey: true) var _id: ObjectId
                @Persisted(originalName: "name") var fullName = ""
                @Persisted var age = 0
                @Persisted var color: String
                @Persisted(indexed: true) var chipNumber = 0
                @Persisted var birthday = Date()
            }
            final class Walker: Object {
                @Persisted var name = ""
            }
            """
        let history = try XCTUnwrap(record([v1, v2]))
        XCTAssertEqual(history.versions.map(\.version), [1, 2])
        let steps = SchemaHistory.migrationSteps(from: history.versions[0], to: history.versions[1])
        XCTAssertEqual(
            steps,
            [
                .removeType("Kennel"),
                .renameProperty(type: "Dog", from: "name", to: "fullName"),
                .changePropertyType(type: "Dog", property: "age", from: "String", to: "Int", needsUserCode: true),
                .changePropertyType(
                    type: "Dog", property: "color", from: "String?", to: "String", needsUserCode: false),
                .addIndex(type: "Dog", property: "chipNumber"),
                .addProperty(type: "Dog", property: "birthday", defaultValue: "Date()"),
                .addType("Walker"),
            ])
        // The renamed property keeps its id; ids of removed things are not reused.
        let oldName = history.versions[0].types[0].properties[1]
        let newName = history.versions[1].types[0].properties[1]
        XCTAssertEqual(oldName.id, newName.id)
        let allIds = history.versions.flatMap { $0.types.flatMap { [$0.id] + $0.properties.map(\.id) } }
        XCTAssertEqual(history.nextId, (allIds.max() ?? 0) + 1)
    }

    func testRenameWithoutOriginalNameIsRemoveAndAdd() throws {
        let v2 = v1.replacingOccurrences(of: "var name = \"\"", with: "var fullName = \"\"")
        let history = try XCTUnwrap(record([v1, v2]))
        XCTAssertEqual(
            SchemaHistory.migrationSteps(from: history.versions[0], to: history.versions[1]),
            [
                .removeProperty(type: "Dog", property: "name"),
                .addProperty(type: "Dog", property: "fullName", defaultValue: "\"\""),
            ])
    }

    func testRenameDetectedByIdWhenTheHistoryIsEditedByHand() throws {
        var history = try XCTUnwrap(record([v1]))
        var version2 = try XCTUnwrap(history.latest)
        version2.version = 2
        version2.types[0].properties[2].name = "years"
        history.versions.append(version2)
        XCTAssertEqual(
            SchemaHistory.migrationSteps(from: history.versions[0], to: history.versions[1]),
            [.renameProperty(type: "Dog", from: "age", to: "years")])
    }

    func testPrimaryKeyChangeIsReported() throws {
        let v2 = v1.replacingOccurrences(
            of: "@Persisted(primaryKey: true) var _id: ObjectId", with: "@Persisted var _id: ObjectId"
        )
        .replacingOccurrences(
            of: "@Persisted var chipNumber = 0", with: "@Persisted(primaryKey: true) var chipNumber = 0")
        let history = try XCTUnwrap(record([v1, v2]))
        XCTAssertEqual(
            SchemaHistory.migrationSteps(from: history.versions[0], to: history.versions[1]),
            [
                .changePrimaryKey(type: "Dog", property: "_id", isPrimaryKey: false),
                .changePrimaryKey(type: "Dog", property: "chipNumber", isPrimaryKey: true),
            ])
    }

    func testHistoryRoundTripsThroughDeterministicJSON() throws {
        let history = try XCTUnwrap(record([v1]))
        let data = history.encoded()
        XCTAssertEqual(try SchemaHistory.decode(data, path: "strata-schema.json"), history)
        XCTAssertEqual(data, try SchemaHistory.decode(data, path: "x").encoded())
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("{\n  \"formatVersion\" : 1,\n  \"nextId\" : 9,"), text)
    }

    func testBuildWithoutHistoryIsVersionZeroWithoutDiagnostics() {
        let outcome = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["Models.swift": v1]), history: nil,
            historyDisplayPath: "Sources/App/strata-schema.json")
        XCTAssertEqual(outcome.diagnostics, [])
        XCTAssertTrue(outcome.output?.contains("schemaVersion: 0,") ?? false)
        XCTAssertTrue(outcome.output?.contains("migrations: []") ?? false)
    }

    func testBuildWithMatchingHistoryUsesItsLatestVersion() throws {
        let history = record([v1, v1.replacingOccurrences(of: "var age = \"\"", with: "var age = 0")])
        let outcome = SchemaCompiler.generate(
            targetName: "App",
            inputs: Fixtures.inputs(["Models.swift": v1.replacingOccurrences(of: "var age = \"\"", with: "var age = 0")]
            ),
            history: history, historyDisplayPath: "Sources/App/strata-schema.json")
        XCTAssertEqual(outcome.diagnostics, [])
        let output = try XCTUnwrap(outcome.output)
        XCTAssertTrue(output.contains("schemaVersion: 2,"))
        XCTAssertTrue(
            output.contains(
                #".changePropertyType(type: "Dog", property: "age", from: "String", to: "Int", needsUserCode: true)"#))
    }

    /// Issue 18: once a history exists, an edit that needs no decision builds at the recorded
    /// version, with a warning that says what to run, and the generated schema lists the changes.
    func testBuildWarnsWhenModelsChangedWithoutUpdatingTheHistory() throws {
        let history = record([v1])
        let changed = v1.replacingOccurrences(
            of: "@Persisted var chipNumber = 0", with: "@Persisted var chipNumber = 0\n    @Persisted var weight = 0.0")
        let outcome = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["Models.swift": changed]),
            history: history, historyDisplayPath: "Sources/App/strata-schema.json")
        XCTAssertEqual(
            outcome.diagnostics.map(\.description),
            [
                "Sources/App/strata-schema.json:1:1: warning: the models of target 'App' changed since schema version 1 was recorded in strata-schema.json (Dog.weight was added); run `swift package --allow-writing-to-package-directory strata-schema update --target App` to record version 2 and commit strata-schema.json. Until then the app runs with version 1: added classes and properties work, and opening a file that needs a migration for the other changes throws schemaMismatch"
            ])
        let output = try XCTUnwrap(outcome.output)
        XCTAssertTrue(output.contains("schemaVersion: 1,"), output)
        XCTAssertTrue(output.contains(#"pendingChanges: ["Dog.weight was added"],"#), output)
        XCTAssertTrue(
            output.contains(
                #"recordCommand: "swift package --allow-writing-to-package-directory strata-schema update --target App""#
            ), output)
    }

    /// A property gone and another new in one class could be a rename: the build stops at the new
    /// property and says what to write or run either way. `originalName` settles it.
    func testPropertyGoneAndAnotherNewNeedsADecision() throws {
        let history = record([v1])
        let edited = v1.replacingOccurrences(of: "@Persisted var chipNumber = 0", with: "@Persisted var chip = 0")
        let outcome = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["Models.swift": edited]),
            history: history, historyDisplayPath: "h.json")
        XCTAssertNil(outcome.output)
        XCTAssertEqual(
            outcome.diagnostics.map(\.description),
            [
                "Models.swift:6:5: error: 'Dog.chip' is new and 'Dog.chipNumber' is gone since schema version 1 of strata-schema.json: a rename keeps the stored values, a removal drops them. To rename, write `@Persisted(originalName: \"chipNumber\") var chip` and build; to remove and add, run `swift package --allow-writing-to-package-directory strata-schema update --target App`"
            ])
        let decided = v1.replacingOccurrences(
            of: "@Persisted var chipNumber = 0", with: "@Persisted(originalName: \"chipNumber\") var chip = 0")
        let built = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["Models.swift": decided]), history: history,
            historyDisplayPath: "h.json")
        XCTAssertNotNil(built.output)
        XCTAssertEqual(built.diagnostics.map(\.severity), [.warning])
        XCTAssertTrue(
            built.diagnostics.first?.message.contains("(Dog.chipNumber was renamed to chip);") ?? false,
            "\(built.diagnostics)")
    }

    /// A class gone and another new: the build says how to record a rename (`--rename-type`) or a
    /// removal; `update --rename-type` keeps the class's id, so the steps are a rename.
    func testClassGoneAndAnotherNewNeedsADecision() throws {
        let history = try XCTUnwrap(record([v1]))
        let edited = v1.replacingOccurrences(of: "final class Kennel: Object", with: "final class Shelter: Object")
        let outcome = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["Models.swift": edited]),
            history: history, historyDisplayPath: "h.json")
        XCTAssertNil(outcome.output)
        XCTAssertEqual(
            outcome.diagnostics.map(\.description),
            [
                "Models.swift:8:1: error: class 'Shelter' is new and class 'Kennel' is gone since schema version 1 of strata-schema.json: a rename keeps the objects, a removal leaves them in existing files (until a migration calls deleteData(forType:)). To rename, run `swift package --allow-writing-to-package-directory strata-schema update --target App --rename-type Kennel=Shelter`; to remove and add, run `swift package --allow-writing-to-package-directory strata-schema update --target App`"
            ])
        let result = SchemaCompiler.update(
            inputs: Fixtures.inputs(["Models.swift": edited]), history: history, typeRenames: ["Shelter": "Kennel"])
        let updated = try XCTUnwrap(result.history)
        XCTAssertEqual(
            SchemaHistory.migrationSteps(from: updated.versions[0], to: updated.versions[1]),
            [.renameType(from: "Kennel", to: "Shelter")])
        let bad = SchemaCompiler.update(
            inputs: Fixtures.inputs(["Models.swift": edited]), history: history, typeRenames: ["Shelter": "Kennels"])
        XCTAssertNil(bad.history)
        XCTAssertEqual(
            bad.diagnostics.map(\.description),
            ["strata-schema.json:1:1: error: --rename-type Kennels=Shelter: version 1 has no class 'Kennels'"])
    }

    /// Integer literals given as `schemaVersion` must be the latest recorded version: the history's
    /// versions and `Realm.Configuration.schemaVersion` are one number.
    func testSchemaVersionLiteralsMustBeTheRecordedVersion() throws {
        let history = record([v1, v1.replacingOccurrences(of: "var age = \"\"", with: "var age = 0")])
        let app = """
            func open() throws {
                var config = Realm.Configuration(fileURL: url, schemaVersion: 1)
                config.schemaVersion = 3
                _ = Realm.Configuration(schemaVersion: 2)
                _ = Realm.Configuration()
            }
            """
        let models = v1.replacingOccurrences(of: "var age = \"\"", with: "var age = 0")
        let outcome = SchemaCompiler.generate(
            targetName: "App", inputs: Fixtures.inputs(["App.swift": app, "Models.swift": models]),
            history: history, historyDisplayPath: "h.json")
        XCTAssertNil(outcome.output)
        XCTAssertEqual(
            outcome.diagnostics.map(\.description),
            [
                "App.swift:2:67: error: schemaVersion 1 is not the latest version recorded in strata-schema.json (2), so the migration steps the history records would not match it; write `schemaVersion: 2`, or leave schemaVersion out (0 means the latest recorded version)",
                "App.swift:3:28: error: schemaVersion 3 is not the latest version recorded in strata-schema.json (2), so the migration steps the history records would not match it; run `swift package --allow-writing-to-package-directory strata-schema update --target App --schema-version 3` to record the models as version 3 (also for a migration that only changes data), or write `schemaVersion: 2`",
            ])
        // Without a history, schemaVersion is the app's own business.
        XCTAssertEqual(
            SchemaCompiler.generate(
                targetName: "App", inputs: Fixtures.inputs(["App.swift": app, "Models.swift": models]),
                history: nil, historyDisplayPath: "h.json"
            ).diagnostics, [])
    }

    /// `--schema-version` records a version even when the models did not change (a data-only
    /// migration) and refuses a number that is not past the latest.
    func testUpdateWithASchemaVersionRecordsADataOnlyVersion() throws {
        let history = try XCTUnwrap(record([v1]))
        let same = SchemaCompiler.update(inputs: Fixtures.inputs(["Models.swift": v1]), history: history, version: 4)
        XCTAssertTrue(same.added)
        XCTAssertEqual(same.history?.versions.map(\.version), [1, 4])
        XCTAssertEqual(same.history.map { SchemaHistory.migrationSteps(from: $0.versions[0], to: $0.versions[1]) }, [])
        let lower = SchemaCompiler.update(inputs: Fixtures.inputs(["Models.swift": v1]), history: history, version: 1)
        XCTAssertNil(lower.history)
        XCTAssertEqual(
            lower.diagnostics.map(\.description),
            ["strata-schema.json:1:1: error: --schema-version 1 must be greater than the latest recorded version (1)"])
    }

    func testDefaultValueChangesNeedNoNewVersion() {
        let history = record([v1])
        let outcome = SchemaCompiler.generate(
            targetName: "App",
            inputs: Fixtures.inputs([
                "Models.swift": v1.replacingOccurrences(of: "var name = \"\"", with: "var name = \"Rex\"")
            ]),
            history: history, historyDisplayPath: "h.json")
        XCTAssertEqual(outcome.diagnostics, [])
    }

    func testUnreadableAndNewerHistoriesAreRefusedWithTheFix() {
        XCTAssertThrowsError(try SchemaHistory.decode(Data("{".utf8), path: "Sources/App/strata-schema.json")) {
            error in
            XCTAssertTrue(
                "\(error)".hasPrefix("Sources/App/strata-schema.json:1:1: error: cannot read the schema history: "),
                "\(error)")
        }
        let newer = Data(#"{"formatVersion": 9, "nextId": 1, "versions": []}"#.utf8)
        XCTAssertThrowsError(try SchemaHistory.decode(newer, path: "h.json")) { error in
            XCTAssertEqual(
                "\(error)",
                "h.json:1:1: error: the schema history has format 9 but this strata-schema reads format 1; update the Strata package"
            )
        }
    }
}
