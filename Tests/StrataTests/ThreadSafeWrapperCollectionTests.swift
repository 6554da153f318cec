import Foundation
import Strata
import XCTest

/// `@ThreadSafe` on results and collections and on unmanaged objects, and
/// `ThreadSafeReference.isInvalidated` and the generic `resolve`.
final class ThreadSafeWrapperCollectionTests: SeedTestCase {
    private struct Holder: @unchecked Sendable {
        @ThreadSafe var contacts: Results<Contact>?
        @ThreadSafe var tags: List<String>?
        @ThreadSafe var friends: List<Contact>?
        @ThreadSafe var friendOf: LinkingObjects<Contact>?
    }

    /// Runs `body` on a new thread and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }

    func testWrappedResultsAndCollectionsResolveOnAnotherThread() throws {
        let realm = try open()
        try realm.write {
            let ann = Contact(value: ["id": 1, "name": "Ann", "tags": ["a", "b"]])
            ann.friends.append(Contact(value: ["id": 2, "name": "Bob"]))
            realm.add(ann)
        }
        let ann = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let bob = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 2))
        let holder = Holder(
            contacts: realm.objects(Contact.self).where { $0.id > 0 }, tags: ann.tags, friends: ann.friends,
            friendOf: bob.friendOf)
        let configuration = config()
        let seen = Locked<[String]>([])
        onAnotherThread {
            seen.mutate { $0.append("\(holder.contacts?.count ?? -1)") }
            seen.mutate { $0.append(holder.tags.map { $0.joined(separator: ",") } ?? "nil") }
            seen.mutate { $0.append(holder.friends?.first?.name ?? "nil") }
            seen.mutate { $0.append(holder.friendOf?.first?.name ?? "nil") }
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.object(ofType: Contact.self, forPrimaryKey: 1)!.tags.append("c") }
            // A wrapper resolves on every read.
            seen.mutate { $0.append("\(holder.tags?.count ?? -1)") }
        }
        XCTAssertEqual(seen.value, ["2", "a,b", "Bob", "Ann", "3"])
        XCTAssertEqual(holder.tags.map(Array.init), ["a", "b", "c"])
    }

    func testWrappingAnUnmanagedObjectIsAViolationAndHoldsNil() {
        @ThreadSafe var contact = Contact(value: [1])
        XCTAssertNil(contact)
        XCTAssertEqual(takeViolations(), ["Only managed objects may be wrapped as thread safe."])
    }

    func testReferenceIsInvalidatedOnceResolved() throws {
        let realm = try open()
        try realm.write { realm.add(Contact(value: [1, "Ann"])) }
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let reference = ThreadSafeReference(to: contact)
        XCTAssertFalse(reference.isInvalidated)
        XCTAssertEqual(resolveGenerically(reference, in: realm)?.name, "Ann")
        XCTAssertTrue(reference.isInvalidated)
        XCTAssertNil(resolveGenerically(reference, in: realm))
        XCTAssertEqual(takeViolations(), ["Can only resolve a thread safe reference once."])
    }

    func testGenericResolveResolvesResultsAndLists() throws {
        let realm = try open()
        try realm.write { realm.add(Contact(value: ["id": 1, "tags": ["x"]])) }
        let contact = try XCTUnwrap(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let results = resolveGenerically(ThreadSafeReference(to: realm.objects(Contact.self)), in: realm)
        XCTAssertEqual(results?.count, 1)
        let tags = resolveGenerically(ThreadSafeReference(to: contact.tags), in: realm)
        XCTAssertEqual(tags.map(Array.init), ["x"])
    }

    /// Resolves through `Realm.resolve<T: ThreadConfined>`, as code generic over the type does.
    private func resolveGenerically<T: ThreadConfined>(_ reference: ThreadSafeReference<T>, in realm: Realm) -> T? {
        realm.resolve(reference)
    }
}
