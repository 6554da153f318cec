import Foundation
import Strata
import StrataStorage
import XCTest

/// `Realm.Configuration.shouldCompactOnLaunch`: asked at the first open of a file in a process,
/// with the file's size and the bytes its data uses.
final class CompactOnLaunchTests: SeedTestCase {
    final class Calls: @unchecked Sendable {
        var sizes: [(total: Int, used: Int)] = []
    }

    func configuration(
        _ name: String = "test.realm", compact: (@Sendable (Int, Int) -> Bool)? = nil
    ) -> Realm.Configuration {
        var config = Realm.Configuration(
            fileURL: url(name), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self])
        config.shouldCompactOnLaunch = compact
        return config
    }

    func size(_ name: String = "test.realm") throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url(name).path)[.size] as? Int)
    }

    /// Grows the file with 40,000 dogs, then deletes all but 4,000 (every 10th), and closes it.
    func growAndShrink() throws {
        let realm = try Realm(configuration: configuration())
        for batch in 0..<8 {
            try realm.write {
                for i in (batch * 5000)..<((batch + 1) * 5000) {
                    realm.add(Dog(value: ["name": "dog\(i)", "age": i, "breed": String(repeating: "x", count: 200)]))
                }
            }
        }
        try realm.write {
            realm.delete(realm.objects(Dog.self).filter { $0.age % 10 != 0 })
        }
        XCTAssertEqual(realm.objects(Dog.self).count, 4000)
    }

    func testCompactionOnLaunchBringsAShrunkFileWithinTenPercentOfAFreshCopy() throws {
        try growAndShrink()
        let grown = try size()
        try { try Realm(configuration: configuration()).writeCopy(toFile: url("fresh.realm")) }()
        let fresh = try size("fresh.realm")
        let calls = Calls()
        let realm = try Realm(
            configuration: configuration(compact: { total, used in
                calls.sizes.append((total, used))
                return true
            }))
        let compacted = try size()
        print("compaction on launch: grown \(grown) bytes, compacted \(compacted) bytes, fresh copy \(fresh) bytes")
        XCTAssertEqual(calls.sizes.count, 1)
        XCTAssertEqual(calls.sizes.first?.total, grown)
        XCTAssertLessThan(calls.sizes.first?.used ?? .max, grown)
        XCTAssertLessThanOrEqual(
            Double(compacted), Double(fresh) * 1.10, "grown \(grown), compacted \(compacted), fresh copy \(fresh) bytes"
        )
        // Every remaining object reads back.
        XCTAssertEqual(realm.objects(Dog.self).count, 4000)
        XCTAssertEqual(realm.objects(Dog.self).where { $0.age == 39990 }.first?.name, "dog39990")
        XCTAssertEqual(Set(realm.objects(Dog.self).map(\.age)), Set(stride(from: 0, to: 40000, by: 10)))
        // And the compacted file still takes writes.
        try realm.write { realm.add(Dog(value: ["name": "after"])) }
        XCTAssertEqual(realm.objects(Dog.self).count, 4001)
    }

    func testDecliningCompactionLeavesTheFileAsItWas() throws {
        try growAndShrink()
        let grown = try size()
        let calls = Calls()
        let realm = try Realm(
            configuration: configuration(compact: { total, used in
                calls.sizes.append((total, used))
                return false
            }))
        XCTAssertEqual(calls.sizes.count, 1)
        XCTAssertEqual(try size(), grown)
        XCTAssertEqual(realm.objects(Dog.self).count, 4000)
    }

    /// Only the first open in a process asks: a realm of the file is open already.
    func testNotAskedWhileTheFileIsOpenInThisProcess() throws {
        let first = try Realm(configuration: configuration())
        let calls = Calls()
        let done = expectation(description: "opened on another thread")
        let config = configuration(compact: { total, used in
            calls.sizes.append((total, used)); return true
        })
        Thread.detachNewThread {
            do { _ = try Realm(configuration: config) } catch { XCTFail("\(error)") }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(calls.sizes.count, 0)
        _ = first
    }

    /// Skipped while another handle (another process, in practice) has the file open.
    func testNotCompactedWhileAnotherHandleHasTheFileOpen() throws {
        try growAndShrink()
        let grown = try size()
        var options = Database.Options()
        options.pageSize = 8192
        let other = try Database(path: url().path, options: options)
        defer { other.close() }
        let calls = Calls()
        _ = try Realm(
            configuration: configuration(compact: { total, used in
                calls.sizes.append((total, used)); return true
            }))
        XCTAssertEqual(calls.sizes.count, 0)
        XCTAssertEqual(try size(), grown)
    }

    func testReadOnlyConfigurationWithCompactionIsRefused() throws {
        _ = try Realm(configuration: configuration())
        var config = configuration(compact: { _, _ in true })
        config.readOnly = true
        XCTAssertThrowsError(try Realm(configuration: config)) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .readOnly, "\(error)")
            XCTAssertTrue("\(error)".contains("shouldCompactOnLaunch"), "\(error)")
        }
    }
}
