import StrataSchemaKit
import XCTest

/// What the collectors and the resolver read from declarations.
final class ModelCollectorTests: XCTestCase {
    func testTypesAreInferredFromTheDefaultValuesTheDocsUse() throws {
        let schema = try resolve("""
            enum Status: String, PersistableEnum { case open, closed }
            final class Item: Object {
                @Persisted var name = ""
                @Persisted var count = 0
                @Persisted var ratio = 0.0
                @Persisted var done = false
                @Persisted var created = Date()
                @Persisted var negative = -1
                @Persisted var id = ObjectId.generate()
                @Persisted var uuid = UUID()
                @Persisted var status = Status.open
                @Persisted var tags = List<String>()
                @Persisted var qualified: Foundation.Date
                @Persisted var explicit: Optional<Int>
            }
            """)
        let item = try XCTUnwrap(schema.models.first)
        XCTAssertEqual(item.properties.map(\.type), [.string, .int, .double, .bool, .date, .int, .objectId, .uuid, .string, .string, .date, .int])
        XCTAssertEqual(item.properties.map(\.swiftType), ["String", "Int", "Double", "Bool", "Date", "Int", "ObjectId", "UUID", "Status", "List<String>", "Date", "Int?"])
        XCTAssertEqual(item.properties[8].enumTypeName, "Status")
        XCTAssertEqual(item.properties[9].collection, .list)
        XCTAssertEqual(item.properties[11].isOptional, true)
    }

    func testOnlyModelBaseClassesAndPersistedPropertiesAreCollected() throws {
        let schema = try resolve("""
            import Strata
            final class Dog: Strata.Object {
                @Persisted var name = ""
                var cache = [String]()
                func bark() { final class Local: Object {} }
            }
            final class Helper: NSObject {
                @Published var name = ""
            }
            struct Value { var x = 0 }
            final class Address: EmbeddedObject { @Persisted var city = "" }
            final class Event: AsymmetricObject { @Persisted var at = Date() }
            """)
        XCTAssertEqual(schema.models.map(\.name), ["Dog", "Address", "Event"])
        XCTAssertEqual(schema.models.map(\.kind), [.object, .embedded, .asymmetric])
        XCTAssertEqual(schema.models[0].properties.map(\.name), ["name"])
    }

    func testAttributesAreRead() throws {
        let schema = try resolve("""
            final class Person: Object {
                @Persisted(primaryKey: true) var _id: ObjectId
                @Persisted(indexed: true) var email: String?
                @Persisted(originalName: "nick") var nickname = ""
                @Persisted var dogs: List<Dog>
            }
            final class Dog: Object {
                @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
            }
            """)
        let person = schema.models[0]
        XCTAssertEqual(person.primaryKey, "_id")
        XCTAssertTrue(person.properties[1].isIndexed)
        XCTAssertTrue(person.properties[1].isOptional)
        XCTAssertEqual(person.properties[2].originalName, "nick")
        XCTAssertEqual(person.properties[3].objectClassName, "Dog")
        let owners = schema.models[1].properties[0]
        XCTAssertEqual(owners.type, .linkingObjects)
        XCTAssertEqual(owners.objectClassName, "Person")
        XCTAssertEqual(owners.linkOriginPropertyName, "dogs")
    }
}
