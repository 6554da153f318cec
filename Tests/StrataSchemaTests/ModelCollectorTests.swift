import StrataSchemaKit
import XCTest

/// What the collectors and the resolver read from declarations.
final class ModelCollectorTests: XCTestCase {
    func testTypesAreInferredFromTheDefaultValuesTheDocsUse() throws {
        let schema = try resolve(
            """
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
        XCTAssertEqual(
            item.properties.map(\.type),
            [.string, .int, .double, .bool, .date, .int, .objectId, .uuid, .string, .string, .date, .int])
        XCTAssertEqual(
            item.properties.map(\.swiftType),
            [
                "String", "Int", "Double", "Bool", "Date", "Int", "ObjectId", "UUID", "Status", "List<String>", "Date",
                "Int?",
            ])
        XCTAssertEqual(item.properties[8].enumTypeName, "Status")
        XCTAssertEqual(item.properties[9].collection, .list)
        XCTAssertEqual(item.properties[11].isOptional, true)
    }

    func testCodableModelsWithoutTheirOwnEncodeGetAGeneratedOne() throws {
        let schema = try resolve(
            """
            final class Parcel: Object, Codable { @Persisted var code = "" }
            final class Letter: Object, Swift.Encodable { @Persisted var code = "" }
            final class Note: Object { @Persisted var code = "" }
            final class Envelope: Object, Codable {
                @Persisted var code = ""
                func encode(to encoder: any Encoder) throws {}
            }
            """)
        XCTAssertEqual(
            Set(schema.models.map { "\($0.name):\($0.emitsEncode)" }),
            ["Parcel:true", "Letter:true", "Note:false", "Envelope:false"])
    }

    func testOnlyModelBaseClassesAndPersistedPropertiesAreCollected() throws {
        let schema = try resolve(
            """
            import Strata
            final class Dog: Strata.Object {
                @Persisted var name = ""
                var cache = [String]()
                func bark() { final class Local: NSObject {} }
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
        let schema = try resolve(
            """
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

    func testNestedModelsKeepTheirOwnNameAndAreSpelledQualified() throws {
        let schema = try resolve(
            """
            enum Kennel {
                final class Breed: Object { @Persisted var origin: Kennel.Country? }
            }
            extension Kennel {
                class Country: Object { @Persisted var name = "" }
                struct Registry { final class Tag: EmbeddedObject { @Persisted var code = "" } }
            }
            """)
        XCTAssertEqual(schema.models.map(\.name), ["Breed", "Country", "Tag"])
        XCTAssertEqual(schema.models.map(\.qualifiedName), ["Kennel.Breed", "Kennel.Country", "Kennel.Registry.Tag"])
        XCTAssertEqual(schema.models.map(\.kind), [.object, .object, .embedded])
        XCTAssertEqual(schema.models[0].properties.first?.objectClassName, "Country")
    }

    func testSubclassesOfModelsAreModelsWithTheSuperclassPropertiesFirst() throws {
        let schema = try resolve(
            """
            final class Beagle: Puppy { @Persisted var bark = 0 }
            class Dog: Object {
                @Persisted(primaryKey: true) var id = 0
                @Persisted var name = ""
            }
            class Puppy: Dog { @Persisted var toy = "" }
            class Address: EmbeddedObject { @Persisted var street = "" }
            final class PostalAddress: Address { @Persisted var zip = "" }
            final class Other: NSObject {}
            """)
        XCTAssertEqual(schema.models.map(\.name), ["Beagle", "Dog", "Puppy", "Address", "PostalAddress"])
        let beagle = schema.models[0]
        XCTAssertEqual(beagle.superclass, "Puppy")
        XCTAssertEqual(beagle.properties.map(\.name), ["id", "name", "toy", "bark"])
        XCTAssertEqual(beagle.properties.map(\.declaringClass), ["Dog", "Dog", "Puppy", "Beagle"])
        XCTAssertEqual(beagle.primaryKey, "id")
        XCTAssertEqual(schema.models[4].kind, .embedded)
        XCTAssertEqual(schema.subclasses(of: "Dog").map(\.name), ["Beagle", "Puppy"])
    }

    func testPropertiesMappingGivesStoredNamesPerDeclaringClass() throws {
        let schema = try resolve(
            """
            class Person: Object {
                @Persisted var firstName = ""
                @Persisted var age = 0
                override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
            }
            class Employee: Person {
                @Persisted var badge = ""
            }
            class Manager: Person {
                @Persisted var level = 0
                override class func propertiesMapping() -> [String: String] { ["level": "grade"] }
            }
            """)
        XCTAssertEqual(schema.models[0].properties.map(\.columnName), ["first_name", "age"])
        XCTAssertEqual(schema.models[1].properties.map(\.columnName), ["first_name", "age", "badge"])
        // Each class maps the properties it declares (RealmSwift asks each class for its own).
        XCTAssertEqual(schema.models[2].properties.map(\.columnName), ["first_name", "age", "grade"])
        XCTAssertEqual(schema.models[2].properties.map(\.name), ["firstName", "age", "level"])
        XCTAssertEqual(schema.withStoredNames.models[0].properties.map(\.name), ["first_name", "age"])
    }

    func testObserversAreRecorded() throws {
        let schema = try resolve(
            """
            final class Dog: Object {
                @Persisted var name = "" { didSet {} }
                @Persisted var age = 0
            }
            """)
        XCTAssertEqual(schema.models[0].properties.map(\.hasObservers), [true, false])
    }
}
