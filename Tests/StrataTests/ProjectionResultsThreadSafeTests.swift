import Foundation
import Strata
import StrataTestSupport
import XCTest

/// A `ThreadSafeReference` to `Results` of a projection class resolves, on another thread, to the
/// projections of the same query (filter and sort kept) in that thread's realm.
final class ProjectionResultsThreadSafeTests: SeedTestCase {
    func testReferenceToProjectionResultsResolvesToTheSameQueryOnAnotherThread() throws {
        let realm = try open()
        try realm.write {
            for (i, name) in ["Bob", "Ann", "Cid", "Amy"].enumerated() {
                realm.add(Person(value: ["id": i + 1, "name": name]))
            }
        }
        let results = realm.objects(PersonProjection.self).where { $0.id > 1 }.sorted(byKeyPath: "name")
        let reference = ThreadSafeReference(to: results)
        let config = self.config()
        let read = Locked<[String]>([])
        let done = expectation(description: "resolved on another thread")
        Thread.detachNewThread {
            let other = try! Realm(configuration: config)
            guard let resolved: Results<PersonProjection> = other.resolve(reference) else {
                read.value = ["nil"]
                done.fulfill()
                return
            }
            // Live in the resolving realm: a write there shows in the resolved results.
            try! other.write { other.add(Person(value: ["id": 5, "name": "Abe"])) }
            read.value = resolved.map(\.displayName) + [resolved.realm == other ? "same realm" : "other realm"]
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(read.value, ["Abe", "Amy", "Ann", "Cid", "same realm"])
    }
}
