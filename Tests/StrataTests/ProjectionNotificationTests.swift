import Foundation
@testable import Strata
import StrataTestSupport
import XCTest

/// `observe` on a projection: changes of its projected properties, named as the projection
/// names them, with values read back through the projection.
final class ProjectionNotificationTests: SeedTestCase {
    private func drain() {
        let end = Date(timeIntervalSinceNow: 0.3)
        while Date() < end { _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005)) }
    }

    private func addAnn(_ realm: Realm) throws -> Person {
        try realm.write {
            let ann = Person()
            ann.id = 1
            ann.name = "Ann"
            ann.address = Address(value: ["street": "Main St", "city": "Oslo"])
            realm.add(ann)
        }
        return try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 1))
    }

    func testChangesAreReportedByProjectedNameWithProjectedValues() throws {
        let realm = try open()
        let ann = try addAnn(realm)
        let view = PersonProjection(projecting: ann)
        var seen: [[String]] = []
        var deleted = false
        let token = view.observe(keyPaths: ["displayName", "nameCaps"]) { change in
            switch change {
            case .change(_, let properties):
                seen.append(
                    properties.map {
                        "\($0.name): \($0.oldValue.map { "\($0)" } ?? "-") -> \($0.newValue.map { "\($0)" } ?? "-")"
                    })
            case .deleted: deleted = true
            case .error(let error): XCTFail("\(error)")
            }
        }
        try realm.write { ann.name = "Anna" }
        spin(until: { seen.count == 1 })
        XCTAssertEqual(seen.first, ["displayName: Ann -> Anna", "nameCaps: ANN -> ANNA"])

        // A property no watched projected property reads delivers nothing.
        try realm.write { ann.address?.street = "High St" }
        drain()
        XCTAssertEqual(seen.count, 1)

        try realm.write { realm.delete(ann) }
        spin(until: { deleted })
        token.invalidate()
    }

    func testAllProjectedPropertiesAreWatchedByDefaultAndSwiftKeyPathsNameThem() throws {
        let realm = try open()
        let ann = try addAnn(realm)
        let view = PersonProjection(projecting: ann)
        var names: [[String]] = []
        let token = view.observe { change in
            if case .change(_, let properties) = change { names.append(properties.map(\.name)) }
        }
        var byKeyPath: [[String]] = []
        let keyPathToken = view.observe(keyPaths: [\PersonProjection.homeCity]) { change in
            if case .change(let projection, let properties) = change {
                byKeyPath.append(properties.map(\.name) + [projection.homeCity ?? "-"])
            }
        }
        try realm.write { ann.address?.city = "Bergen" }
        spin(until: { names.count == 1 && byKeyPath.count == 1 })
        XCTAssertEqual(names.first, ["homeCity"])
        XCTAssertEqual(byKeyPath.first, ["homeCity", "Bergen"])
        try realm.write { ann.name = "Anna" }
        spin(until: { names.count == 2 })
        XCTAssertEqual(names.last, ["name", "displayName", "nameCaps"])
        drain()
        XCTAssertEqual(byKeyPath.count, 1, "the name is not watched by the key path observer")
        token.invalidate()
        keyPathToken.invalidate()

        _ = view.observe(keyPaths: ["nickname"]) { _ in }
        XCTAssertEqual(takeViolations(), ["Property 'nickname' not found in projection 'PersonProjection'."])
    }

    @MainActor
    func testAProjectionObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let ann = try addAnn(realm)
        let view = PersonProjection(projecting: ann)
        let actor = NoteActor()
        let token = await view.observe(keyPaths: ["displayName"], on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .change(let v, let properties): a.seen.append("\(properties.map(\.name)) \(v.displayName)")
            case .deleted: a.seen.append("deleted")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        realm.file.notifier.waitForRound()
        try realm.write { ann.name = "Anna" }
        let deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        let seen = await actor.seen
        XCTAssertEqual(seen, ["[\"displayName\"] Anna"])
        token.invalidate()
    }
}
