import Foundation
import Strata
import XCTest

/// @ThreadSafe.
extension ConcurrencyTests {
    final class Holder: @unchecked Sendable {
        @ThreadSafe var dog: Dog?
    }

    /// `@ThreadSafe` keeps an object usable across threads: each thread reads it live in its own
    /// realm; nil once deleted; unmanaged objects are reported.
    func testThreadSafePropertyWrapper() throws {
        let (realm, dog) = try realmWithRex()
        let holder = Holder()
        holder.dog = dog
        XCTAssertTrue(holder.dog?.realm == realm)
        let configuration = config()
        let worker = WorkerThread("strata.tests.wrapper")
        defer { worker.stop() }
        let there = worker.sync { () -> (String?, Bool, Int?) in
            guard let d = holder.dog else { return (nil, false, nil) }
            let r = try! Realm(configuration: configuration)
            try! r.write { d.age += 1 }
            return (d.name, d.realm == r, holder.dog?.age)
        }
        XCTAssertEqual(there.0, "Rex")
        XCTAssertTrue(there.1, "read live in the reading thread's realm")
        XCTAssertEqual(there.2, 4)
        XCTAssertEqual(holder.dog?.age, 4, "the write is visible on this thread")
        XCTAssertEqual(takeViolations(), [])

        // Many threads at once.
        let names = Locked<[String]>([])
        onThreadsAtOnce(4) { _ in
            let name = holder.dog?.name ?? "nil"
            names.mutate { $0.append(name) }
        }
        XCTAssertEqual(names.value, ["Rex", "Rex", "Rex", "Rex"])

        try realm.write { realm.delete(dog) }
        XCTAssertNil(worker.sync { holder.dog.map(\.name) }, "nil once deleted")
        XCTAssertNil(holder.dog)

        holder.dog = Dog(value: ["name": "Loose"])
        let reports = takeViolations()
        XCTAssertEqual(reports.count, 1, "\(reports)")
        XCTAssertNil(holder.dog)
        holder.dog = nil
        XCTAssertNil(holder.dog)
        XCTAssertEqual(takeViolations(), [])
    }
}
