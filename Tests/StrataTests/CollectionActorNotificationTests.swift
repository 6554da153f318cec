import Foundation
import XCTest

@testable import Strata

class ActorNoteOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var dogs: List<ActorNoteDog>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
}

class ActorNoteDog: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<ActorNoteOwner>
}

/// `observe(keyPaths:on: actor)` on the collection properties: the block runs isolated to the
/// actor, with the collection read from the actor's realm, for commits of any realm.
final class CollectionActorNotificationTests: SeedTestCase {
    /// Waits (at most 20 s) until the actor saw `count` changes; returns them.
    @MainActor
    func seen(_ actor: NoteActor, count: Int) async throws -> [String] {
        let deadline = Date(timeIntervalSinceNow: 20)
        while await actor.seen.count < count, Date() < deadline { try await Task.sleep(nanoseconds: 2_000_000) }
        return await actor.seen
    }

    func makeOwner(_ realm: Realm) throws -> ActorNoteOwner {
        let owner = ActorNoteOwner(value: ["id": 1])
        try realm.write { realm.add(owner) }
        return owner
    }

    @MainActor
    func testListObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let owner = try makeOwner(realm)
        let actor = NoteActor()
        let token = await owner.dogs.observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let dogs): a.seen.append("initial \(dogs.count)")
            case .update(let dogs, let d, let i, let m): a.seen.append("update \(d) \(i) \(m) \(dogs.map(\.name))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { owner.dogs.append(ActorNoteDog(value: ["name": "Rex"])) }
        _ = try await seen(actor, count: 2)
        try realm.write { owner.dogs[0].name = "Rexy" }
        let result = try await seen(actor, count: 3)
        XCTAssertEqual(result, ["initial 0", "update [] [0] [] [\"Rex\"]", "update [] [] [0] [\"Rexy\"]"])
        token.invalidate()
    }

    @MainActor
    func testSetObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let owner = try makeOwner(realm)
        let actor = NoteActor()
        let token = await owner.tags.observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let tags): a.seen.append("initial \(tags.count)")
            case .update(let tags, _, let i, _): a.seen.append("update \(i) \(Array(tags))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { owner.tags.insert("good") }
        let result = try await seen(actor, count: 2)
        XCTAssertEqual(result, ["initial 0", "update [0] [\"good\"]"])
        token.invalidate()
    }

    @MainActor
    func testMapObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let owner = try makeOwner(realm)
        let actor = NoteActor()
        let token = await owner.scores.observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let map): a.seen.append("initial \(map.count)")
            case .update(let map, let d, let i, let m):
                a.seen.append("update \(d) \(i) \(m) \(map["agility"] ?? nil ?? -1)")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { owner.scores["agility"] = 7 }
        _ = try await seen(actor, count: 2)
        try realm.write { owner.scores["agility"] = 9 }
        let result = try await seen(actor, count: 3)
        XCTAssertEqual(result, ["initial 0", "update [] [\"agility\"] [] 7", "update [] [] [\"agility\"] 9"])
        token.invalidate()
    }

    @MainActor
    func testLinkingObjectsObservedOnAnActorAreDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let dog = ActorNoteDog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        let actor = NoteActor()
        let token = await dog.owners.observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let owners): a.seen.append("initial \(owners.count)")
            case .update(let owners, _, let i, _): a.seen.append("update \(i) \(owners.map(\.id))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write {
            let owner = realm.create(ActorNoteOwner.self, value: ["id": 5])
            owner.dogs.append(dog)
        }
        let result = try await seen(actor, count: 2)
        XCTAssertEqual(result, ["initial 0", "update [0] [5]"])
        token.invalidate()
    }

    @MainActor
    func testAnyRealmCollectionObservedOnAnActorIsDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let owner = try makeOwner(realm)
        let actor = NoteActor()
        let token = await AnyRealmCollection(owner.dogs).observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let dogs): a.seen.append("initial \(dogs.count)")
            case .update(let dogs, _, let i, _): a.seen.append("update \(i) \(dogs.map(\.name))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { owner.dogs.append(ActorNoteDog(value: ["name": "Rex"])) }
        let result = try await seen(actor, count: 2)
        XCTAssertEqual(result, ["initial 0", "update [0] [\"Rex\"]"])
        token.invalidate()
    }

    @MainActor
    func testResultsOfValuesObservedOnAnActorAreDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let owner = try makeOwner(realm)
        let actor = NoteActor()
        let token = await owner.tags.sorted(ascending: true).observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let tags): a.seen.append("initial \(Array(tags))")
            case .update(let tags, _, let i, _): a.seen.append("update \(i) \(Array(tags))")
            case .error(let e): a.seen.append("error \(e)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { owner.tags.insert(objectsIn: ["b", "a"]) }
        let result = try await seen(actor, count: 2)
        XCTAssertEqual(result, ["initial []", "update [0, 1] [\"a\", \"b\"]"])
        token.invalidate()
    }

    @MainActor
    func testSectionedResultsObservedOnAnActorAreDeliveredIsolatedToIt() async throws {
        let realm = try open()
        let actor = NoteActor()
        let sections = realm.objects(ActorNoteDog.self).sectioned(by: \.name, ascending: true)
        let token = await sections.observe(on: actor) { a, change in
            a.preconditionIsolated()
            switch change {
            case .initial(let s): a.seen.append("initial \(s.allKeys)")
            case .update(let s, _, _, _, let sectionsToInsert, _):
                a.seen.append("update \(Array(sectionsToInsert)) \(s.allKeys)")
            }
        }
        _ = try await seen(actor, count: 1)
        try realm.write { realm.add(ActorNoteDog(value: ["name": "Rex"])) }
        let result = try await seen(actor, count: 2)
        XCTAssertEqual(result, ["initial []", "update [0] [\"Rex\"]"])
        token.invalidate()
    }

    @MainActor
    func testAnUnmanagedListCannotBeObservedOnAnActor() async throws {
        let actor = NoteActor()
        let token = await ActorNoteOwner().dogs.observe(on: actor) { a, _ in a.seen.append("called") }
        XCTAssertEqual(
            takeViolations(),
            [
                "Only lists which are managed by a Realm support change notifications. Add the owning object to a realm first."
            ])
        token.invalidate()
        let seen = await actor.seen
        XCTAssertEqual(seen, [])
    }
}
