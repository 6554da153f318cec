import Foundation
import StrataSchemaKit
import XCTest

/// Fixture models -> expected generated file, diffed line by line.
///
/// To regenerate the goldens after an intended change to the output:
///
///     STRATA_UPDATE_GOLDENS=1 swift test --filter StrataSchemaTests.GoldenFileTests
///
/// then review the diff of `Tests/Fixtures/Golden/*/Expected.swift.golden` before committing.
final class GoldenFileTests: XCTestCase {
    func testDoggoDBExampleModels() throws {
        try check(name: "DoggoDB", sources: Fixtures.packageRoot.appending(path: "Examples/DoggoDB"), history: nil)
    }

    func testIntegrationModelsWithHistoryAndMigrations() throws {
        let directory = Fixtures.packageRoot.appending(path: "Tests/StrataSchemaIntegrationTests")
        try check(
            name: "IntegrationModels", sources: directory.appending(path: "Models"),
            history: directory.appending(path: "strata-schema.json"))
    }

    func testPublicModelsAcrossFiles() throws {
        try check(name: "PublicModels", sources: Fixtures.golden.appending(path: "PublicModels/Input"), history: nil)
    }

    /// The fuzzer's models (StrataFuzzKit) are compiled without the plugin (a fuzzing build
    /// would build the generator with libFuzzer too), from a generated file kept in the
    /// repository: it must be what the generator makes of the models today.
    func testFuzzKitModelsMatchTheirCheckedInGeneratedFile() throws {
        let kit = Fixtures.packageRoot.appending(path: "Fuzz/Sources/StrataFuzzKit")
        try check(
            name: "StrataFuzzKit", sources: kit.appending(path: "Models"), history: nil,
            golden: kit.appending(path: "Generated/StrataFuzzKit+Strata.swift"))
    }

    /// Nested models, a class hierarchy, a property with an observer, a mapped property and
    /// enums with String and Double raw values (one as an optional primary key).
    func testModelShapesRealmSwiftAccepts() throws {
        try check(name: "ModelShapes", sources: Fixtures.golden.appending(path: "ModelShapes/Input"), history: nil)
    }

    /// Projection classes: the list of their `@Projected` properties and the persisted path each
    /// reads.
    func testProjectionsListTheirProjectedProperties() throws {
        try check(name: "Projections", sources: Fixtures.golden.appending(path: "Projections/Input"), history: nil)
    }

    func testOutputIsDeterministic() throws {
        let inputs = try Fixtures.inputs(in: Fixtures.packageRoot.appending(path: "Examples/DoggoDB"))
        let first = SchemaCompiler.generate(
            targetName: "DoggoDB", inputs: inputs, history: nil, historyDisplayPath: "h"
        ).output
        let second = SchemaCompiler.generate(
            targetName: "DoggoDB", inputs: inputs, history: nil, historyDisplayPath: "h"
        ).output
        XCTAssertNotNil(first)
        XCTAssertEqual(first, second)
        XCTAssertFalse(first?.contains(Fixtures.packageRoot.path) ?? true, "no absolute paths in the output")
    }

    private func check(
        name: String, sources: URL, history historyURL: URL?, golden: URL? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let inputs = try Fixtures.inputs(in: sources)
        var history: SchemaHistory?
        if let historyURL {
            history = try SchemaHistory.decode(Data(contentsOf: historyURL), path: historyURL.lastPathComponent)
        }
        let outcome = SchemaCompiler.generate(
            targetName: name, inputs: inputs, history: history, historyDisplayPath: "strata-schema.json")
        XCTAssertEqual(outcome.diagnostics.map(\.description), [], file: file, line: line)
        let actual = try XCTUnwrap(outcome.output, file: file, line: line)
        let goldenURL = golden ?? Fixtures.golden.appending(path: "\(name)/Expected.swift.golden")
        if ProcessInfo.processInfo.environment["STRATA_UPDATE_GOLDENS"] != nil {
            try FileManager.default.createDirectory(
                at: goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: goldenURL)
            return
        }
        guard let expected = try? String(contentsOf: goldenURL, encoding: .utf8) else {
            return XCTFail(
                "missing golden \(goldenURL.path); run STRATA_UPDATE_GOLDENS=1 swift test --filter StrataSchemaTests.GoldenFileTests",
                file: file, line: line)
        }
        if expected != actual {
            XCTFail(
                "generated output differs from \(goldenURL.lastPathComponent):\n"
                    + lineDiff(expected: expected, actual: actual)
                    + "\nIf the change is intended: STRATA_UPDATE_GOLDENS=1 swift test --filter StrataSchemaTests.GoldenFileTests",
                file: file, line: line)
        }
    }

    /// The first differing lines, with their numbers.
    private func lineDiff(expected: String, actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for index in 0..<max(e.count, a.count) where out.count < 20 {
            let left = index < e.count ? String(e[index]) : "<end>"
            let right = index < a.count ? String(a[index]) : "<end>"
            if left != right { out.append("line \(index + 1):\n  - \(left)\n  + \(right)") }
        }
        return out.joined(separator: "\n")
    }
}
