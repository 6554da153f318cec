import Foundation
import Strata
import XCTest

/// Reading and writing unmanaged objects through the generated accessors.
final class GeneratedAccessorTests: XCTestCase {
    func testMakeCreatesAnUnmanagedInstanceWithDefaults() {
        let object = AllTypes.strataAccessors.make()
        XCTAssertEqual(object.int, 0)
        XCTAssertEqual(object.string, "")
        XCTAssertEqual(object.mood, .happy)
        XCTAssertNil(object.priority)
        XCTAssertEqual(object.any, .none)
        XCTAssertTrue(object.strings.isEmpty)
        XCTAssertTrue(object.objectSchema == AllTypes.strataObjectSchema)
    }

    func testGettersReturnTheStoredValues() throws {
        let object = AllTypes()
        object.int = 42
        object.int8 = -7
        object.string = "Rex"
        object.mood = .grumpy
        object.priority = .high
        object.decimal = "19.99"
        object.strings.append(objectsIn: ["a", "b"])
        object.scores["agility"] = 9
        object.tags.insert("x")
        let accessors = AllTypes.strataAccessors
        XCTAssertEqual(accessors.value(ofProperty: "int", of: object).flatMap(Int64.init), 42)
        XCTAssertEqual(accessors.value(ofProperty: "int8", of: object).flatMap(Int64.init), -7)
        guard case .string("Rex")? = accessors.value(ofProperty: "string", of: object) else { return XCTFail("string") }
        guard case .string("grumpy")? = accessors.value(ofProperty: "mood", of: object) else { return XCTFail("mood") }
        guard case .int(2)? = accessors.value(ofProperty: "priority", of: object) else { return XCTFail("priority") }
        guard case .decimal128(let decimal)? = accessors.value(ofProperty: "decimal", of: object) else {
            return XCTFail("decimal")
        }
        XCTAssertEqual(decimal.description, "19.99")
        guard case .list(let strings)? = accessors.value(ofProperty: "strings", of: object) else {
            return XCTFail("strings")
        }
        XCTAssertEqual(strings.compactMap { if case .string(let s) = $0 { s } else { nil } }, ["a", "b"])
        guard case .map(let scores)? = accessors.value(ofProperty: "scores", of: object),
            case .int(9)? = scores["agility"]
        else { return XCTFail("scores") }
        guard case .set(let tags)? = accessors.value(ofProperty: "tags", of: object), tags.count == 1 else {
            return XCTFail("tags")
        }
        guard case .null? = accessors.value(ofProperty: "optionalInt", of: object) else {
            return XCTFail("optionalInt")
        }
    }

    func testSettersWriteThroughToTheProperties() throws {
        let object = AllTypes()
        let accessors = AllTypes.strataAccessors
        try accessors.setValue(.int(5), forProperty: "int16", of: object)
        try accessors.setValue(.string("hello"), forProperty: "string", of: object)
        try accessors.setValue(.string("grumpy"), forProperty: "mood", of: object)
        try accessors.setValue(.int(1), forProperty: "priority", of: object)
        try accessors.setValue(.int(3), forProperty: "optionalInt", of: object)
        try accessors.setValue(.double(2.5), forProperty: "any", of: object)
        try accessors.setValue(.list([.int(1), .null, .int(3)]), forProperty: "optionalInts", of: object)
        try accessors.setValue(.map(["a": .int(1)]), forProperty: "scores", of: object)
        XCTAssertEqual(object.int16, 5)
        XCTAssertEqual(object.string, "hello")
        XCTAssertEqual(object.mood, .grumpy)
        XCTAssertEqual(object.priority, .low)
        XCTAssertEqual(object.optionalInt, 3)
        XCTAssertEqual(object.any, .double(2.5))
        XCTAssertEqual(Array(object.optionalInts), [1, nil, 3])
        XCTAssertEqual(object.scores["a"], 1)
        try accessors.setValue(.null, forProperty: "optionalInt", of: object)
        XCTAssertNil(object.optionalInt)
    }

    func testLinksAreWrittenThroughAccessors() throws {
        let owner = Owner()
        let pet = Pet()
        pet.name = "Maui"
        try Owner.strataAccessors.setValue(.object(pet), forProperty: "favorite", of: owner)
        try Owner.strataAccessors.setValue(.list([.object(pet)]), forProperty: "pets", of: owner)
        try Owner.strataAccessors.setValue(
            .map(["m": .object(pet), "none": .null]), forProperty: "petsByName", of: owner)
        XCTAssertTrue(owner.favorite === pet)
        XCTAssertEqual(owner.pets.map(\.name), ["Maui"])
        XCTAssertTrue(owner.petsByName["m"]! === pet)
        XCTAssertEqual(owner.petsByName.count, 2)
        let address = Address()
        address.city = "Lisbon"
        try Owner.strataAccessors.setValue(.object(address), forProperty: "address", of: owner)
        XCTAssertEqual(owner.address?.city, "Lisbon")
    }

    func testSettersRejectValuesOfTheWrongKind() {
        let object = AllTypes()
        let accessors = AllTypes.strataAccessors
        XCTAssertThrowsError(try accessors.setValue(.string("x"), forProperty: "int", of: object)) { error in
            XCTAssertEqual(
                error as? AccessorError,
                .invalidValue(.typeMismatch(property: "AllTypes.int", expected: "Int", found: "string")))
        }
        XCTAssertThrowsError(try accessors.setValue(.int(300), forProperty: "int8", of: object)) { error in
            XCTAssertEqual(
                error as? AccessorError,
                .invalidValue(.typeMismatch(property: "AllTypes.int8", expected: "Int8", found: "int")))
        }
        XCTAssertThrowsError(try accessors.setValue(.string("sleepy"), forProperty: "mood", of: object))
        XCTAssertThrowsError(
            try Owner.strataAccessors.setValue(.object(Address()), forProperty: "favorite", of: Owner()))
        XCTAssertThrowsError(try Pet.strataAccessors.setValue(.list([]), forProperty: "owners", of: Pet())) { error in
            XCTAssertEqual(error as? AccessorError, .readOnly(className: "Pet", property: "owners"))
        }
        XCTAssertThrowsError(try accessors.setValue(.int(1), forProperty: "nope", of: object)) { error in
            XCTAssertEqual(error as? AccessorError, .unknownProperty(className: "AllTypes", property: "nope"))
        }
        XCTAssertEqual(object.int, 0)
        XCTAssertEqual(object.int8, 0)
    }

    func testBindingStoresEachPropertysSchemaIndexInItsWrapper() {
        let owner = Owner()
        XCTAssertEqual(owner.$name.propertyIndex, -1)
        Owner.strataAccessors.bindPropertyIndexes(of: owner)
        XCTAssertEqual(owner.$_id.propertyIndex, 0)
        XCTAssertEqual(owner.$name.propertyIndex, 1)
        XCTAssertEqual(owner.$formerAddresses.propertyIndex, 6)
    }

    func testUnmanagedLinkingObjectsAreEmpty() {
        let pet = Pet()
        XCTAssertTrue(pet.owners.isEmpty)
        XCTAssertEqual(pet.owners.propertyName, "pets")
    }
}

private extension Int64 {
    init?(_ value: PropertyValue) {
        guard case .int(let v) = value else { return nil }
        self = v
    }
}
