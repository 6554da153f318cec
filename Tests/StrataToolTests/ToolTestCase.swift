import Foundation
import Strata
import XCTest

/// Runs the built `strata` executable (SwiftPM builds it beside the test bundle) on files in a
/// temporary directory of each test's own.
class ToolTestCase: XCTestCase {
    var dir = ""

    override func setUp() {
        super.setUp()
        dir = NSTemporaryDirectory() + "/strata-tool-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: dir)
        super.tearDown()
    }

    func path(_ name: String) -> String { dir + "/" + name }

    func configuration(_ name: String = "app.realm") -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path(name)), objectTypes: [ToolDog.self, ToolOwner.self])
    }

    /// The `strata` executable: `STRATA_TOOL_EXECUTABLE` if set, else beside the test bundle.
    static var executable: String {
        get throws {
            if let p = ProcessInfo.processInfo.environment["STRATA_TOOL_EXECUTABLE"] { return p }
            let candidates = [
                Bundle(for: ToolTestCase.self).bundleURL.deletingLastPathComponent().path,
                Bundle.main.bundleURL.path, Bundle.main.bundleURL.deletingLastPathComponent().path,
            ]
            for dir in candidates where FileManager.default.isExecutableFile(atPath: dir + "/strata") {
                return dir + "/strata"
            }
            throw XCTSkip(
                "the strata executable was not built beside the tests (looked in \(candidates)); run `swift build` first"
            )
        }
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// Runs `strata arguments` with `input` on standard input and `environment` added to this
    /// process's environment; output is piped (not a terminal).
    func strata(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.executable)
        p.arguments = arguments
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let input { inp.fileHandleForWriting.write(Data(input.utf8)) }
        try inp.fileHandleForWriting.close()
        // Read both pipes while the tool runs, so a full pipe never blocks it.
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outBox.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let outData = outBox.data
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A file with three dogs and two owners, written through the Realm API.
    func makeAppFile(_ name: String = "app.realm") throws {
        let realm = try Realm(configuration: configuration(name))
        try realm.write {
            let rex = ToolDog(value: [
                "name": "Rex", "age": 3, "weight": 12.5, "born": Date(timeIntervalSince1970: 1_700_000_000.25),
                "photo": Data([1, 2, 3]), "tags": ["good", "loud"],
            ])
            let fido = ToolDog(value: ["name": "Fido", "age": 7])
            let ace = ToolDog(value: ["name": "Ace \"the\" dog", "age": 1])
            let ada = ToolOwner(value: ["id": "ada", "favorite": rex])
            ada.dogs.append(objectsIn: [rex, fido])
            ada.extra = .string("note")
            let bob = ToolOwner(value: ["id": "bob"])
            bob.dogs.append(ace)
            bob.extra = .int(42)
            realm.add([ada, bob])
        }
    }

    func json(_ line: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
    }

    func fileSize(_ name: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path(name))[.size] as? Int)
    }
}
