import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// The path a configuration opens is `fileURL.path`, also for URLs whose encoded path differs
/// (escapes, a trailing slash, relative paths, other URL forms).
final class ConfigurationFilePathTests: TemporaryDirectoryTestCase {
    func testFilePathEqualsURLPathForFileURLsMadeFromPaths() {
        let paths = [
            "/tmp/a.realm", "rel/x.realm", "./a.realm", "../b.realm", "/tmp/dir/", "/tmp/a b.realm",
            "/tmp/\u{E9}.realm", "/tmp//double.realm", "/tmp/a/../b.realm", "/tmp/a%41.realm", "/tmp/q?.realm",
            "/tmp/h#x.realm", "/", "/tmp/a;b.realm", "/tmp/%", "/tmp/100%.realm", "/tmp/\u{1F600}/x.realm",
        ]
        for path in paths {
            let url = URL(fileURLWithPath: path)
            XCTAssertEqual(Realm.Configuration.filePath(of: url), url.path, path)
        }
    }

    func testFilePathEqualsURLPathForURLsMadeFromStrings() {
        let strings = [
            "file:///tmp/x.realm", "file://localhost/tmp/x.realm", "file:///tmp/x.realm?q=1", "file:///tmp/x.realm#f",
            "file:/tmp/x.realm", "file:///tmp/x.realm/", "file:///tmp/a%20b.realm", "file:///tmp/a%2Fb.realm",
        ]
        for string in strings {
            let url = try! XCTUnwrap(URL(string: string))
            XCTAssertEqual(Realm.Configuration.filePath(of: url), url.path, string)
        }
    }

    func testARealmAtAPathWithEscapedCharactersKeepsItsObjectsAcrossReopening() throws {
        let dir = temporaryDirectory.appendingPathComponent("with space %41 \u{E9}")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("a b.realm")
        let config = Realm.Configuration(fileURL: url, objectTypes: [Todo.self])
        XCTAssertEqual(config.path, dir.path + "/a b.realm")
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.add(Todo(value: ["name": "kept"])) }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/a b.realm"))
        let reopened = try Realm(configuration: config)
        XCTAssertEqual(reopened.objects(Todo.self).map(\.name), ["kept"])
    }
}
