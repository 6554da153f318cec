import Foundation
import Strata
import XCTest

/// `strata verify`: a report, and a non-zero exit when the file is damaged.
final class VerifyCommandTests: ToolTestCase {
    func manyDogs() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write {
            for i in 0..<3000 { realm.add(ToolDog(value: ["name": "dog\(i)", "age": i % 50])) }
        }
    }

    func testIntactFileIsOKWithExitZero() throws {
        try makeAppFile()
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains(": OK"), run.stdout)
        XCTAssertTrue(run.stdout.contains("ToolDog: 3 objects checked"), run.stdout)
    }

    /// Every page after the meta pages gets a damaged byte: found at open or by the checks.
    func testDamagedPagesAreReportedWithExitOne() throws {
        try manyDogs()
        let size = try fileSize("app.realm")
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path("app.realm")))
        for page in stride(from: 2 * 8192, to: size, by: 8192) {
            try handle.seek(toOffset: UInt64(page + 4000))
            try handle.write(contentsOf: Data([0xA5, 0x5A, 0xA5, 0x5A]))
        }
        try handle.close()
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("DAMAGED"), run.stdout)
    }

    /// One damaged leaf of an older, intact commit's tree: the open succeeds (it checks the
    /// newest commit's own pages) and the page walk finds it.
    func testOneDamagedPageFoundByThePageWalk() throws {
        try manyDogs()
        // A later small commit: the pages of the first commit are not the newest commit's.
        try {
            let realm = try Realm(configuration: configuration())
            try realm.write { realm.add(ToolOwner(value: ["id": "late"])) }
        }()
        let size = try fileSize("app.realm")
        // Damage the middle page of the file's in-use range.
        let page = (size / 8192) / 2
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path("app.realm")))
        try handle.seek(toOffset: UInt64(page * 8192 + 5000))
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 16))
        try handle.close()
        let run = try strata(["verify", path("app.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("DAMAGED"), run.stdout)
        XCTAssertTrue(run.stdout.contains("page"), run.stdout)
    }

    func testForeignFileIsReportedWithExitOne() throws {
        try Data(repeating: 0x42, count: 40000).write(to: URL(fileURLWithPath: path("foreign.realm")))
        let run = try strata(["verify", path("foreign.realm")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("cannot be opened"), run.stdout)
        XCTAssertTrue(run.stdout.contains("not a Strata database"), run.stdout)
    }
}
