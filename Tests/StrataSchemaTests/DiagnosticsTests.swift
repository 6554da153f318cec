import StrataSchemaKit
import XCTest

/// Each unsupported declaration is reported at its file:line:column with the fix in the message.
final class DiagnosticsTests: XCTestCase {
    func testUnsupportedPropertyTypeSuggestsAReplacement() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted var homepage: URL?
                @Persisted var weight: CGFloat
                @Persisted var tags: [String]
                @Persisted var owner: Person?
            }
            """), [
            "Models.swift:2:5: error: 'URL' is not a supported property type; store the URL's string: `String` (and convert with `URL(string:)`)",
            "Models.swift:3:5: error: 'CGFloat' is not a supported property type; use `Double`",
            "Models.swift:4:5: error: '[String]' is not a supported property type; use `List<String>` for an array",
            "Models.swift:5:5: error: 'Person' is not a supported property type; if 'Person' is a model, declare it in this target as `class Person: Object`; if it is an enum, declare `enum Person: String, PersistableEnum`; otherwise use one of \(supportedTypes)",
        ])
    }

    func testTwoPrimaryKeysAreRejectedAtTheSecond() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted(primaryKey: true) var _id: ObjectId
                @Persisted(primaryKey: true) var name: String
            }
            """), [
            "Models.swift:3:5: error: 'Dog' already has the primary key '_id'; a model has at most one, write `@Persisted var name: String` (or `@Persisted(indexed: true)` to look it up fast)",
        ])
    }

    func testNonFinalModelIsAcceptedAsInTheSeeds() {
        // The seeds (and RealmSwift code) declare `class Dog: Object`; it needs no `final`.
        XCTAssertEqual(diagnostics("""
            import Strata

            class Dog: Object, ObjectKeyIdentifiable {
                @Persisted var name = ""
            }
            """), [])
    }

    func testSubclassOfAModelIsRejected() {
        XCTAssertEqual(diagnostics("""
            class Dog: Object {
                @Persisted var name = ""
            }
            class Puppy: Dog {
                @Persisted var toy = ""
            }
            class Helper: Formatter {}
            """), [
            "Models.swift:4:1: error: class 'Puppy' inherits from the model class 'Dog', but model inheritance is not supported (it would be stored as a 'Dog'); derive it from Object and declare the properties it needs: `class Puppy: Object`",
        ])
    }

    func testListOfOptionalObjects() {
        XCTAssertEqual(diagnostics("""
            final class Person: Object {
                @Persisted var dogs: List<Dog?>
            }
            final class Dog: Object {}
            """), [
            "Models.swift:2:5: error: a List cannot hold optional objects; write `List<Dog>`",
        ])
    }

    func testLinkingObjectsWithAMissingOriginProperty() {
        XCTAssertEqual(diagnostics("""
            final class Person: Object {
                @Persisted var dogs: List<Dog>
            }
            final class Dog: Object {
                @Persisted(originProperty: "dgos") var owners: LinkingObjects<Person>
                @Persisted var walkers: LinkingObjects<Person>
            }
            """), [
            "Models.swift:5:5: error: LinkingObjects 'owners' names the origin property 'dgos', but Person has no property 'dgos' linking to Dog; write `@Persisted(originProperty: \"dogs\")`",
            "Models.swift:6:5: error: LinkingObjects 'walkers' needs its origin property: write `@Persisted(originProperty: \"dogs\") var walkers: LinkingObjects<Person>`",
        ])
    }

    func testLinkingObjectsWhoseOriginDoesNotLinkBack() {
        XCTAssertEqual(diagnostics("""
            final class Person: Object {
                @Persisted var name = ""
            }
            final class Dog: Object {
                @Persisted(originProperty: "name") var owners: LinkingObjects<Person>
            }
            """), [
            "Models.swift:5:5: error: LinkingObjects 'owners' names the origin property 'name', but Person has no property 'name' linking to Dog; add a link to it, e.g. `@Persisted var dogs: List<Dog>` in Person",
        ])
    }

    func testToOneLinkMustBeOptional() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted var toy: DogToy
            }
            final class DogToy: Object {}
            """), ["Models.swift:2:5: error: a to-one link must be optional; write `@Persisted var toy: DogToy?`"])
    }

    func testPrimaryKeyOfUnsupportedTypeAndOnEmbeddedObjects() {
        XCTAssertEqual(diagnostics("""
            final class Reading: Object {
                @Persisted(primaryKey: true) var value = 0.0
            }
            final class Address: EmbeddedObject {
                @Persisted(primaryKey: true) var street = ""
            }
            """), [
            "Models.swift:2:5: error: primary key 'value' has type Double; a primary key must be Int, String, ObjectId or UUID (optional allowed), e.g. `@Persisted(primaryKey: true) var value: ObjectId`",
            "Models.swift:5:5: error: embedded object 'Address' cannot have a primary key; write `@Persisted var street: String`",
        ])
    }

    func testIndexOnUnsupportedType() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted(indexed: true) var weight: Double
            }
            """), ["Models.swift:2:5: error: 'weight' of type Double cannot be indexed; only Bool, Int, String, ObjectId, UUID, Date, AnyRealmValue and PersistableEnum properties can, remove `indexed: true`"])
    }

    func testMissingOrUninferableType() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted var name
                @Persisted var nickname = makeName()
                @Persisted var toy = nil
            }
            """), [
            "Models.swift:2:5: error: 'name' needs a type: write `@Persisted var name: Type` (for example `String`)",
            "Models.swift:3:5: error: cannot tell the type of 'nickname' from its default value `makeName()`; write the type: `@Persisted var nickname: Type = makeName()`",
            "Models.swift:4:5: error: cannot tell the type of 'toy' from its default value `nil`; write the type: `@Persisted var toy: Type = nil`",
        ])
    }

    func testDeclarationFormsThatCannotBePersisted() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted let name = ""
                @Persisted static var count = 0
                @Persisted private var secret = ""
                @Persisted var computed: Int { 1 }
                @Persisted(primaryKey: isKey) var key = ""
                @Persisted(unique: true) var code = ""
            }
            """), [
            "Models.swift:2:5: error: '@Persisted' properties must be declared with 'var'; write `@Persisted var`",
            "Models.swift:3:5: error: '@Persisted' cannot be used on a static property; remove 'static'",
            "Models.swift:4:5: error: '@Persisted' properties cannot be 'private', because the generated accessors in another file read and write them; remove 'private' (or use 'internal')",
            "Models.swift:5:5: error: '@Persisted' cannot be used on a computed property; store the value with `@Persisted var computed: Type`",
            "Models.swift:6:5: error: 'primaryKey:' must be the literal `true` or `false`, because the schema is read at build time",
            "Models.swift:7:5: error: '@Persisted' has no argument 'unique'; use primaryKey:, indexed:, originProperty: or originalName:",
        ])
    }

    func testCollectionsMisuse() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object {
                @Persisted var scores: Map<Int, String>
                @Persisted var toys: Map<String, DogToy>
                @Persisted var grid: List<List<Int>>
                @Persisted var maybe: List<Int>?
                @Persisted var embedded: MutableSet<Address>
                @Persisted var mixed: AnyRealmValue?
            }
            final class DogToy: Object {}
            final class Address: EmbeddedObject {}
            """), [
            "Models.swift:2:5: error: Map keys must be String; write `Map<String, String>`",
            "Models.swift:3:5: error: a Map holds objects as optionals (a deleted object leaves nil); write `Map<String, DogToy?>`",
            "Models.swift:4:5: error: collections cannot be nested (List<Int> as a List element); model the inner collection as an object with a List property",
            "Models.swift:5:5: error: a collection property cannot be optional; write `List<Int>` (an empty collection stands for no values)",
            "Models.swift:6:5: error: a MutableSet cannot hold embedded objects; write `List<Address>`",
            "Models.swift:7:5: error: AnyRealmValue already holds `.none`; write `AnyRealmValue` without `?`",
        ])
    }

    func testEnumsNeedARawTypeAndCases() {
        XCTAssertEqual(diagnostics("""
            enum Mood: PersistableEnum { case happy }
            enum Empty: String, PersistableEnum {}
            """), [
            "Models.swift:1:1: error: PersistableEnum 'Mood' needs an Int or String raw type; write `enum Mood: String, PersistableEnum` (or `: Int, PersistableEnum`)",
            "Models.swift:2:1: error: PersistableEnum 'Empty' has no cases; add at least one `case`, its first case is the default value",
        ])
    }

    func testModelsMustBeTopLevelAndUnique() {
        XCTAssertEqual(diagnostics("""
            enum Namespace {
                final class Inner: Object {}
            }
            final class Dog: Object {}
            final class Dog: Object {}
            """), [
            "Models.swift:2:5: error: model class 'Inner' is nested in another declaration; move `class Inner: Object` to the top level of its file",
            "Models.swift:5:1: error: model class 'Dog' is declared twice (first at Models.swift:4); rename one of them",
        ])
    }

    func testLinksToAsymmetricObjectsAreRejected() {
        XCTAssertEqual(diagnostics("""
            final class Sensor: Object {
                @Persisted var last: Reading?
            }
            final class Reading: AsymmetricObject {}
            """), ["Models.swift:2:5: error: objects cannot link to the asymmetric object 'Reading'; asymmetric objects are write-only, store its primary key instead"])
    }

    func testValidSeedModelsHaveNoDiagnostics() {
        XCTAssertEqual(diagnostics("""
            final class Dog: Object, ObjectKeyIdentifiable {
                @Persisted(primaryKey: true) var _id: UUID
                @Persisted var name = ""
                @Persisted var age = 0
                @Persisted var favoriteToy: DogToy?
                @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
            }
            final class Person: Object {
                @Persisted(primaryKey: true) var _id: ObjectId
                @Persisted var firstName = ""
                @Persisted var dogs: List<Dog>
            }
            final class DogToy: Object { @Persisted var name = "" }
            """), [])
    }

    func testDiagnosticsCarryTheFilePathGiven() {
        XCTAssertEqual(diagnostics("final class A: Object { @Persisted var x: UInt }", file: "/abs/Sources/App/A.swift"),
                       ["/abs/Sources/App/A.swift:1:25: error: 'UInt' is not a supported property type; use a signed integer type such as `Int`"])
    }

    private let supportedTypes = "Bool, Int, Int8, Int16, Int32, Int64, Float, Double, String, Data, Date, Decimal128, ObjectId, UUID, AnyRealmValue, an optional of these, List<T>, MutableSet<T>, Map<String, T>, LinkingObjects<T>, a model class declared in this target (as `T?`), or a PersistableEnum"
}
