import Foundation
import Strata
import XCTest

/// `object(ofType:forPrimaryKey:)` on an `Int` primary key (stored as the object key): the object
/// it returns carries the row it was found in, and must still read what the realm shows after
/// later writes, refreshes, deletions and freezing.
final class PrimaryKeyLookupTests: SeedTestCase {
    private func fill(_ realm: Realm, count: Int = 50) throws {
        try realm.write {
            for i in 0..<count { realm.add(PlainIntKeyed(value: ["id": i, "value": "v\(i)"])) }
        }
    }

    func testAnObjectFoundByItsIntKeyReadsItsValues() throws {
        let realm = try open()
        try fill(realm)
        for i in [0, 1, 17, 49] {
            let o = try XCTUnwrap(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: i))
            XCTAssertEqual(o.id, i)
            XCTAssertEqual(o.value, "v\(i)")
        }
        XCTAssertNil(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 50))
        XCTAssertNil(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: -1))
    }

    func testAnObjectFoundByItsIntKeyReadsTheValueOfALaterWrite() throws {
        let realm = try open()
        try fill(realm)
        let o = try XCTUnwrap(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 7))
        XCTAssertEqual(o.value, "v7")
        try realm.write { realm.objects(PlainIntKeyed.self).where { $0.id == 7 }.first!.value = "seven" }
        XCTAssertEqual(o.value, "seven")
    }

    func testAnObjectFoundBeforeAnotherThreadsCommitReadsItAfterRefresh() throws {
        let realm = try open()
        try fill(realm)
        let o = try XCTUnwrap(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 3))
        XCTAssertEqual(o.value, "v3")
        let config = realm.configuration
        let done = expectation(description: "commit on another thread")
        Thread.detachNewThread {
            do {
                let other = try Realm(configuration: config)
                try other.write { other.object(ofType: PlainIntKeyed.self, forPrimaryKey: 3)!.value = "three" }
            } catch {
                XCTFail("\(error)")
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        realm.refresh()
        XCTAssertEqual(o.value, "three")
    }

    func testAnObjectDeletedAfterItsLookupIsReportedAsDeleted() throws {
        let realm = try open()
        try fill(realm)
        let o = try XCTUnwrap(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 9))
        XCTAssertEqual(o.value, "v9")
        try realm.write { realm.delete(realm.objects(PlainIntKeyed.self).where { $0.id == 9 }) }
        XCTAssertTrue(o.isInvalidated)
        _ = o.value
        let reported = takeViolations()
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("Object has been deleted or invalidated.") ?? false, "\(reported)")
    }

    func testAnIntKeyLookupWithAKeyOfAnotherTypeOrNilFindsNothing() throws {
        let realm = try open()
        try fill(realm)
        XCTAssertNil(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: "7"))
        XCTAssertNil(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 7.0))
        XCTAssertNil(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: nil))
        XCTAssertEqual(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: Int64(7))?.value, "v7")
        XCTAssertEqual(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: Int8(7))?.value, "v7")
    }

    func testAnObjectFoundInAFrozenRealmKeepsItsVersionsValue() throws {
        let realm = try open()
        try fill(realm)
        let frozen = realm.freeze()
        try realm.write { realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 5)!.value = "five" }
        let old = try XCTUnwrap(frozen.object(ofType: PlainIntKeyed.self, forPrimaryKey: 5))
        XCTAssertTrue(old.isFrozen)
        XCTAssertEqual(old.value, "v5")
        XCTAssertEqual(realm.object(ofType: PlainIntKeyed.self, forPrimaryKey: 5)?.value, "five")
    }

    func testFrozenResultsReadFromEightThreadsAtOnceAgree() throws {
        let realm = try open()
        try fill(realm, count: 300)
        let frozen = realm.objects(PlainIntKeyed.self).where { $0.id >= 100 }.freeze()
        let sent = Unchecked(frozen)
        let seen = Locked<[[Int]]>([])
        // The first evaluation of the frozen results' keys happens on eight threads at once.
        onThreadsAtOnce(8) { _ in
            let ids = sent.value.map(\.id)
            seen.mutate { $0.append(ids) }
        }
        let expected = Array(100..<300)
        XCTAssertEqual(seen.value.count, 8)
        for ids in seen.value { XCTAssertEqual(ids, expected) }
        XCTAssertEqual(frozen.count, 200)
    }
}
