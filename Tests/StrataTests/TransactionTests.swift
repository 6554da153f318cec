import Foundation
import Strata
import XCTest

/// Seed 001 ("CRUD - Swift SDK", write transactions) and the transaction API around it:
/// commit, cancel, rollback of everything a transaction did, nesting, misuse.
final class TransactionTests: SeedTestCase {
    // MARK: Seed 001, "Run a Transaction"

    /// Seed 001's snippet, verbatim except that the default configuration points at a
    /// temporary file. The block makes no change; the write commits and leaves the realm
    /// outside a transaction.
    func testSeed001RunATransaction() throws {
        Realm.Configuration.defaultConfiguration = config("default.realm")
        // Open the default realm.
        let realm = try! Realm()

        // Prepare to handle exceptions.
        do {
            // Open a thread-safe transaction.
            try realm.write {
                // Make any writes within this code block.
                // Realm automatically cancels the transaction
                // if this code throws an exception. Otherwise,
                // Realm automatically commits the transaction
                // after the end of this code block.
            }
        } catch let error as NSError {
            // Failed to write to realm.
            // ... Handle error ...
            XCTFail("empty write failed: \(error)")
        }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.configuration.fileURL?.path, url("default.realm").path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: url("default.realm").path))
    }

    /// "Realm commits the transaction immediately after the callback": what the block wrote is
    /// visible right after `write` returns, and in a realm opened afterwards.
    func testWriteCommitsAndPersists() throws {
        do {
            let realm = try open()
            try realm.write {
                realm.add(SeedDog(value: ["name": "Rex", "age": 10]))
                realm.add(SeedDog(value: ["name": "Fido", "age": 5]))
            }
            XCTAssertEqual(realm.objects(SeedDog.self).count, 2)
        }
        let realm = try open()
        let dogs = realm.objects(SeedDog.self)
        XCTAssertEqual(dogs.count, 2)
        XCTAssertEqual(Set(dogs.map(\.name)), ["Rex", "Fido"])
        XCTAssertEqual(dogs.map(\.age).reduce(0, +), 15)
    }

    /// `write` returns the block's result.
    func testWriteReturnsTheBlockResult() throws {
        let realm = try open()
        let dog = try realm.write { () -> SeedDog in
            let d = SeedDog(value: ["name": "Rex", "age": 3])
            realm.add(d)
            return d
        }
        XCTAssertEqual(dog.realm.map { $0 == realm }, true)
        XCTAssertEqual(dog.name, "Rex")
    }

    /// "If the code in the callback throws an exception when Realm runs it, Realm cancels the
    /// transaction": the error comes out of `write` unchanged and nothing of the block is stored
    /// (new objects, changed properties, deletions).
    func testThrowingBlockCancelsTheTransaction() throws {
        do {
            let realm = try open()
            let kept = SeedPerson(value: ["id": 1, "name": "Kept"])
            let doomed = SeedPerson(value: ["id": 2, "name": "Doomed"])
            try realm.write {
                realm.add(kept)
                realm.add(doomed)
            }
            XCTAssertThrowsError(
                try realm.write {
                    realm.add(SeedPerson(value: ["id": 3, "name": "New"]))
                    kept.name = "Changed"
                    realm.delete(doomed)
                    throw SeedAbort()
                }
            ) { error in
                XCTAssertEqual(error as? SeedAbort, SeedAbort())
            }
            XCTAssertFalse(realm.isInWriteTransaction)
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 2)
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 3))
            XCTAssertEqual(kept.name, "Kept")
            XCTAssertFalse(doomed.isInvalidated)
            XCTAssertEqual(doomed.name, "Doomed")
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 2)
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1)?.name, "Kept")
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 2)?.name, "Doomed")
        XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 3))
    }

    // MARK: Rollback leaves no trace, primary-key index included

    func testCancelWriteLeavesNoTraceIncludingThePrimaryKeyIndex() throws {
        do {
            let realm = try open()
            try realm.beginWrite()
            let p = SeedPerson(value: ["id": 77, "name": "Ghost"])
            realm.add(p)
            XCTAssertEqual(
                realm.object(ofType: SeedPerson.self, forPrimaryKey: 77)?.name, "Ghost",
                "visible inside its own transaction")
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
            realm.cancelWrite()
            XCTAssertFalse(realm.isInWriteTransaction)
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 77))
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 0)
            XCTAssertTrue(p.isInvalidated, "an object added in a cancelled write becomes invalid")
            // The key is free again.
            try realm.write { realm.add(SeedPerson(value: ["id": 77, "name": "Real"])) }
            XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 77)?.name, "Real")
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 77)?.name, "Real")
    }

    func testThrowingWriteLeavesNoTraceIncludingThePrimaryKeyIndex() throws {
        do {
            let realm = try open()
            XCTAssertThrowsError(
                try realm.write {
                    realm.add(SeedPerson(value: ["id": 88, "name": "Ghost"]))
                    realm.add(SeedProfile(value: ["id": 88, "name": "Ghost too"]))
                    XCTAssertNotNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 88))
                    throw SeedAbort()
                })
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 88))
            XCTAssertNil(realm.object(ofType: SeedProfile.self, forPrimaryKey: 88))
            // Re-adding the same keys, with the default `.error` policy, succeeds.
            try realm.write {
                realm.add(SeedPerson(value: ["id": 88, "name": "Real"]))
                realm.add(SeedProfile(value: ["id": 88, "name": "Real too"]))
            }
        }
        let realm = try open()
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 88)?.name, "Real")
        XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 88)?.name, "Real too")
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 1)
    }

    /// A String primary key (stored in an index tree rather than as the object key) is rolled
    /// back too.
    func testRollbackOfAStringLikePrimaryKey() throws {
        let realm = try open()
        let toyId = ObjectId.generate()
        XCTAssertThrowsError(
            try realm.write {
                realm.add(SeedDoggoToy(value: ["_id": toyId, "name": "Ghost ball"]))
                throw SeedAbort()
            })
        XCTAssertNil(realm.object(ofType: SeedDoggoToy.self, forPrimaryKey: toyId))
        try realm.write { realm.add(SeedDoggoToy(value: ["_id": toyId, "name": "Ball"])) }
        XCTAssertEqual(realm.object(ofType: SeedDoggoToy.self, forPrimaryKey: toyId)?.name, "Ball")
    }

    // MARK: Duplicate primary keys

    /// `.error` (the default) with an existing key fails the whole write with
    /// `.primaryKeyExists`, naming the type and the key; nothing of that write is stored.
    func testDuplicatePrimaryKeyFailsTheWholeWrite() throws {
        do {
            let realm = try open()
            try realm.write { realm.add(SeedPerson(value: ["id": 1234, "name": "Jones"])) }
            let existing = realm.object(ofType: SeedPerson.self, forPrimaryKey: 1234)!
            XCTAssertThrowsError(
                try realm.write {
                    realm.add(SeedPerson(value: ["id": 1, "name": "Before"]))
                    existing.name = "Changed before"
                    realm.add(SeedPerson(value: ["id": 1234, "name": "Duplicate"]))
                    realm.add(SeedPerson(value: ["id": 2, "name": "After"]))
                }
            ) { error in
                guard let e = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)") }
                XCTAssertEqual(e.realmCode, .primaryKeyExists)
                XCTAssertTrue(e.message.contains("'SeedPerson'"), e.message)
                XCTAssertTrue(e.message.contains("'1234'"), e.message)
            }
            XCTAssertFalse(realm.isInWriteTransaction)
            XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1))
            XCTAssertNil(realm.object(ofType: SeedPerson.self, forPrimaryKey: 2))
            XCTAssertEqual(existing.name, "Jones")
        }
        let realm = try open()
        XCTAssertEqual(realm.objects(SeedPerson.self).count, 1)
        XCTAssertEqual(realm.object(ofType: SeedPerson.self, forPrimaryKey: 1234)?.name, "Jones")
    }

    /// Two new objects with the same key in one write: the second fails the write.
    func testDuplicatePrimaryKeyWithinOneWrite() throws {
        let realm = try open()
        let id = UUID()
        XCTAssertThrowsError(
            try realm.write {
                realm.add(SeedDoggoDog(value: ["_id": id, "name": "One"]))
                realm.add(SeedDoggoDog(value: ["_id": id, "name": "Two"]))
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
            XCTAssertTrue("\(error)".contains("'SeedDoggoDog'"), "\(error)")
            XCTAssertTrue("\(error)".contains(id.uuidString), "\(error)")
        }
        XCTAssertEqual(realm.objects(SeedDoggoDog.self).count, 0)
        XCTAssertNil(realm.object(ofType: SeedDoggoDog.self, forPrimaryKey: id))
    }

    /// `create` with `.error` and an existing key fails the write the same way.
    func testCreateWithExistingKeyAndErrorPolicyFails() throws {
        let realm = try open()
        try realm.write { realm.create(SeedProfile.self, value: ["id": 5, "name": "First"]) }
        XCTAssertThrowsError(
            try realm.write {
                realm.create(SeedProfile.self, value: ["id": 6, "name": "Other"])
                realm.create(SeedProfile.self, value: ["id": 5, "name": "Second"])
            }
        ) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .primaryKeyExists)
            XCTAssertTrue("\(error)".contains("'SeedProfile'") && "\(error)".contains("'5'"), "\(error)")
        }
        XCTAssertEqual(realm.objects(SeedProfile.self).count, 1)
        XCTAssertEqual(realm.object(ofType: SeedProfile.self, forPrimaryKey: 5)?.name, "First")
        XCTAssertNil(realm.object(ofType: SeedProfile.self, forPrimaryKey: 6))
    }

    // MARK: Explicit transactions

    func testBeginCommitCancelAndIsInWriteTransaction() throws {
        let realm = try open()
        XCTAssertFalse(realm.isInWriteTransaction)
        try realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        realm.add(SeedDog(value: ["name": "Committed", "age": 1]))
        try realm.commitWrite()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(SeedDog.self).count, 1)

        try realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        realm.add(SeedDog(value: ["name": "Cancelled", "age": 2]))
        XCTAssertEqual(realm.objects(SeedDog.self).count, 2)
        realm.cancelWrite()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name), ["Committed"])

        // Committing or cancelling without a transaction is a violation (RealmSwift raises an
        // exception); with a handler installed nothing happens.
        XCTAssertNoThrow(try realm.commitWrite())
        XCTAssertEqual(takeViolations(), ["Can't commit a non-existing write transaction. (Call beginWrite() first.)"])
        realm.cancelWrite()
        XCTAssertEqual(takeViolations(), ["Can't cancel a non-existing write transaction. (Call beginWrite() first.)"])
        XCTAssertEqual(realm.objects(SeedDog.self).count, 1)
    }

    static let alreadyInWrite =
        "The Realm is already in a write transaction. Commit or cancel it before starting another, and do not call write inside a write block."

    /// `write` inside `write` is a violation (RealmSwift raises an exception); when the handler
    /// returns, the inner `write` throws `.alreadyInWriteTransaction` without running its block,
    /// and the outer transaction goes on and commits what it wrote.
    func testWriteInsideWriteIsAViolationAndSkipsTheBlock() throws {
        let realm = try open()
        var innerRan = false
        try realm.write {
            realm.add(SeedDog(value: ["name": "Outer", "age": 1]))
            XCTAssertThrowsError(
                try realm.write {
                    innerRan = true
                    realm.add(SeedDog(value: ["name": "Inner", "age": 2]))
                }
            ) { error in
                XCTAssertEqual((error as? Realm.Error)?.realmCode, .alreadyInWriteTransaction)
            }
            XCTAssertTrue(realm.isInWriteTransaction)
        }
        XCTAssertFalse(innerRan)
        XCTAssertEqual(takeViolations(), [Self.alreadyInWrite])
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name), ["Outer"])
    }

    /// `beginWrite` inside a transaction is the same violation; the transaction goes on.
    func testBeginWriteInsideWriteIsAViolation() throws {
        let realm = try open()
        realm.beginWrite()
        realm.add(SeedDog(value: ["name": "Kept", "age": 1]))
        realm.beginWrite()
        XCTAssertEqual(takeViolations(), [Self.alreadyInWrite])
        XCTAssertTrue(realm.isInWriteTransaction)
        try realm.commitWrite()
        XCTAssertEqual(realm.objects(SeedDog.self).map(\.name), ["Kept"])
    }

    // MARK: Misuse reported through Realm.violationHandler

    func testSettingAManagedPropertyOutsideAWriteIsAViolation() throws {
        let realm = try open()
        let dog = SeedDog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        dog.name = "Changed"
        XCTAssertEqual(takeViolations(), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(realm.objects(SeedDog.self).first?.name, "Rex")
    }

    func testAddOutsideAWriteIsAViolation() throws {
        let realm = try open()
        realm.add(SeedDog(value: ["name": "Rex", "age": 3]))
        XCTAssertEqual(takeViolations(), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertEqual(realm.objects(SeedDog.self).count, 0)
    }

    func testDeleteOutsideAWriteIsAViolation() throws {
        let realm = try open()
        let dog = SeedDog(value: ["name": "Rex", "age": 3])
        try realm.write { realm.add(dog) }
        realm.delete(dog)
        XCTAssertEqual(takeViolations(), ["Cannot modify managed objects outside of a write transaction."])
        XCTAssertFalse(dog.isInvalidated)
        XCTAssertEqual(realm.objects(SeedDog.self).count, 1)
    }

    /// A read-only realm refuses write transactions.
    func testReadOnlyRealmRefusesWrites() throws {
        do {
            let realm = try open()
            try realm.write { realm.add(SeedDog(value: ["name": "Rex", "age": 3])) }
        }
        var c = config()
        c.readOnly = true
        let realm = try Realm(configuration: c)
        XCTAssertEqual(realm.objects(SeedDog.self).first?.name, "Rex")
        XCTAssertThrowsError(try realm.write {}) { error in
            XCTAssertEqual((error as? Realm.Error)?.realmCode, .readOnly)
        }
        XCTAssertEqual(takeViolations().map { $0.hasPrefix("Can't perform transactions on read-only Realms.") }, [true])
        realm.beginWrite()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(takeViolations().map { $0.hasPrefix("Can't perform transactions on read-only Realms.") }, [true])
    }
}
