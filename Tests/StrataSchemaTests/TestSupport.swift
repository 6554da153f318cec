import Foundation
import StrataSchemaKit
import XCTest

/// Paths of the fixtures and goldens, found from this file so tests run from any directory.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let golden = packageRoot.appending(path: "Tests/Fixtures/Golden")

    /// The Swift files of `directory`, sorted by name, with display paths relative to the package.
    static func inputs(in directory: URL) throws -> [DeclarationCollection.Input] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".swift")
        }.sorted()
        return try names.map { name in
            let url = directory.appending(path: name)
            let relative = String(url.path.dropFirst(packageRoot.path.count + 1))
            return DeclarationCollection.Input(
                displayPath: relative, source: try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// Inputs from in-memory sources, as `name: source` pairs.
    static func inputs(_ files: KeyValuePairs<String, String>) -> [DeclarationCollection.Input] {
        files.map { DeclarationCollection.Input(displayPath: $0.key, source: $0.value) }
    }
}

/// Runs the generator on in-memory sources and returns the diagnostics as compilers print them.
func diagnostics(_ source: String, file: String = "Models.swift") -> [String] {
    let declarations = DeclarationCollection.collect([DeclarationCollection.Input(displayPath: file, source: source)])
    return SchemaResolver.resolve(declarations).diagnostics.map(\.description)
}

/// Resolves in-memory sources that must be valid.
func resolve(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> ResolvedSchema {
    let (schema, diagnostics) = SchemaResolver.resolve(
        DeclarationCollection.collect([.init(displayPath: "Models.swift", source: source)]))
    XCTAssertEqual(diagnostics.map(\.description), [], file: file, line: line)
    return try XCTUnwrap(schema, file: file, line: line)
}
