import Foundation
import Strata
import XCTest

/// Version pinning.
extension ConcurrencyTests {
    /// Fifty frozen versions pinned at once, then released: the pages they held are reused, so
    /// repeating the same work does not grow the file.
    func testReleasedFrozenVersionsAreReclaimedAndTheFileStopsGrowing() throws {
        let realm = try open()
        let path = url().path
        let padding = String(repeating: "x", count: 300)
        try realm.write {
            for i in 0..<1000 { realm.add(Dog(value: ["name": "dog \(i) \(padding)", "age": i])) }
        }
        let seeded = fileSize(path)

        /// 50 cycles of freeze + commit (every object changed), all frozen versions kept until the
        /// end, each checked to still show its own version; then released.
        func round(_ r: Int) throws {
            var pinned: [Realm] = []
            for c in 0..<50 {
                pinned.append(realm.freeze())
                try realm.write {
                    for d in Array(realm.objects(Dog.self)) { d.age += 1 }
                }
                _ = c
            }
            let firstAges = pinned.map { $0.objects(Dog.self).where { $0.name.starts(with: "dog 0 ") }.first!.age }
            XCTAssertEqual(firstAges, Array((r * 50)..<(r * 50 + 50)), "each frozen version shows its own values")
            pinned.removeAll()
        }

        // The file grows in steps (at least 4 MiB), so one leaking round could hide in the slack of
        // the last step: five rounds, each of which pins ~6 MiB while it runs.
        try round(0)
        let afterFirst = fileSize(path)
        var sizes: [Int] = []
        for r in 1..<5 {
            try round(r)
            sizes.append(fileSize(path))
        }
        print("ConcurrencyTests file sizes: seeded \(seeded), after round 1 \(afterFirst), rounds 2-5 \(sizes)")
        XCTAssertGreaterThan(
            afterFirst, seeded, "50 pinned versions need room of their own (else the test measures nothing)")
        XCTAssertEqual(
            sizes, [Int](repeating: afterFirst, count: 4),
            "later rounds reuse the released versions' pages: the file stopped growing")
        XCTAssertEqual(takeViolations(), [])
    }

    /// The control for the test above: with the frozen versions of earlier rounds still held, the
    /// same work keeps growing the file (pinned versions really keep their pages).
    func testPinnedFrozenVersionsKeepTheirPages() throws {
        let realm = try open()
        let path = url().path
        let padding = String(repeating: "x", count: 300)
        try realm.write {
            for i in 0..<1000 { realm.add(Dog(value: ["name": "dog \(i) \(padding)", "age": i])) }
        }
        var pinned: [Realm] = []
        func round() throws {
            for _ in 0..<50 {
                pinned.append(realm.freeze())
                try realm.write {
                    for d in Array(realm.objects(Dog.self)) { d.age += 1 }
                }
            }
        }
        try round()
        let afterFirst = fileSize(path)
        try round()
        let afterSecond = fileSize(path)
        XCTAssertGreaterThan(afterSecond, afterFirst + afterFirst / 2, "held versions keep their pages")
        XCTAssertEqual(pinned.first?.objects(Dog.self).sum(ofProperty: "age") as Int?, 1000 * 999 / 2)
        XCTAssertEqual(takeViolations(), [])
    }

    /// `maximumNumberOfActiveVersions`: freezing beyond the limit is reported with the count and
    /// the limit; releasing frozen versions makes room again.
    func testMaximumNumberOfActiveVersions() throws {
        var configuration = config()
        configuration.maximumNumberOfActiveVersions = 5
        let realm = try Realm(configuration: configuration)
        var frozen: [Realm] = []
        for i in 0..<5 {
            let f = realm.freeze()
            XCTAssertTrue(f.isFrozen, "version \(i + 1) of 5")
            frozen.append(f)
            try realm.write { realm.add(Dog(value: ["name": "d\(i)"])) }
        }
        XCTAssertEqual(takeViolations(), [])

        let sixth = realm.freeze()
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1, "\(reports)")
        let message = reports.first ?? ""
        XCTAssertTrue(message.contains("(6)"), "names the number of active versions: \(message)")
        XCTAssertTrue(message.contains("limit of 5"), "names the limit: \(message)")
        XCTAssertTrue(message.contains("maximumNumberOfActiveVersions"), message)
        XCTAssertFalse(sixth.isFrozen, "no frozen realm past the limit")
        // Objects and results freeze through the realm: the same limit.
        _ = realm.objects(Dog.self).freeze()
        XCTAssertEqual(takeViolations().count, 1, "Results.freeze() past the limit is reported too")

        // Frozen realms of other threads count: the versions are the file's.
        frozen.removeLast(2)
        let worker = WorkerThread("strata.tests.limit")
        defer { worker.stop() }
        let held = worker.sync { () -> Unchecked<[Realm]> in
            let r = try! Realm(configuration: configuration)
            let f1 = r.freeze()
            try! r.write { r.add(Dog(value: ["name": "w1"])) }
            let f2 = r.freeze()
            return Unchecked([f1, f2])
        }
        XCTAssertEqual(takeViolations(), [], "3 + 2 versions")
        XCTAssertTrue(held.value.allSatisfy(\.isFrozen))
        try realm.write { realm.add(Dog(value: ["name": "d6"])) }
        _ = realm.freeze()
        XCTAssertEqual(takeViolations().count, 1, "a sixth version, counting the other thread's")

        frozen.removeAll()
        XCTAssertTrue(realm.freeze().isFrozen, "released versions make room")
        XCTAssertEqual(takeViolations(), [])
    }
}
