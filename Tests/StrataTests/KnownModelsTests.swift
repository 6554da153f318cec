import Foundation
import XCTest

@testable import Strata

/// The classes realms bound, found by identity for type-safe queries without asking the runtime
/// for the conformance; and the schema's answer to "is this property a collection".
final class KnownModelsTests: XCTestCase {
    func testClassesARealmBoundAreFoundByIdentity() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "known-models", objectTypes: [QuickPerson.self, QuickDog.self]))
        withExtendedLifetime(realm) {
            for type in [QuickPerson.self, QuickDog.self] as [ObjectBase.Type] {
                let found = KnownModels.shared.provider(for: type)
                XCTAssertEqual(found.map { ObjectIdentifier($0) }, ObjectIdentifier(type))
            }
        }
    }

    func testAddingTwiceKeepsOneAndEveryClassStaysFindable() {
        let models = KnownModels()
        let types: [any ObjectSchemaProviding.Type] = [QuickDog.self, QuickPerson.self, QuickCompany.self]
        for t in types + types.reversed() { models.add(t) }
        for t in types {
            XCTAssertEqual(models.provider(for: t).map { ObjectIdentifier($0) }, ObjectIdentifier(t))
        }
        // A class no realm bound is still answered (by the runtime's cast).
        XCTAssertEqual(
            models.provider(for: QuickEmployee.self).map { ObjectIdentifier($0) }, ObjectIdentifier(QuickEmployee.self))
        // The base class is no model.
        XCTAssertNil(models.provider(for: Object.self))
    }

    func testListsSetsAndLinkingObjectsAreCollectionsMapsAndValuesAreNot() {
        XCTAssertTrue(isQueryCollection(queryProperty(QuickPerson.self, \QuickPerson.dogs)))
        XCTAssertTrue(isQueryCollection(queryProperty(QuickDog.self, \QuickDog.tags)))
        XCTAssertTrue(isQueryCollection(queryProperty(Contact.self, \Contact.friendOf)))
        XCTAssertFalse(isQueryCollection(queryProperty(QuickDog.self, \QuickDog.vetNotes)))
        XCTAssertFalse(isQueryCollection(queryProperty(QuickDog.self, \QuickDog.name)))
        XCTAssertNil(queryProperty(QuickDog.self, \QuickDog.description))
    }

    func testAQueryThroughAListMatchesAnyElement() throws {
        let realm = try Realm(
            configuration: Realm.Configuration(
                inMemoryIdentifier: "known-models-any", objectTypes: [QuickPerson.self, QuickDog.self]))
        try realm.write {
            let ann = QuickPerson(value: ["firstName": "Ann"])
            ann.dogs.append(QuickDog(value: ["name": "Bo"]))
            ann.dogs.append(QuickDog(value: ["name": "Rex"]))
            let cy = QuickPerson(value: ["firstName": "Cy"])
            cy.dogs.append(QuickDog(value: ["name": "Bo"]))
            realm.add([ann, cy])
        }
        let owners = realm.objects(QuickPerson.self).where { $0.dogs.name == "Rex" }
        XCTAssertEqual(owners.map(\.firstName), ["Ann"])
    }
}
