import StrataSchemaKit
import XCTest

/// Each unsupported declaration is reported at its file:line:column with the fix in the message.
final class DiagnosticsTests: XCTestCase {
    func testUnsupportedPropertyTypeSuggestsAReplacement() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted var homepage: URL?
                    @Persisted var weight: CGFloat
                    @Persisted var tags: [String]
                    @Persisted var owner: Person?
                }
                """),
            [
                "Models.swift:3:5: error: 'CGFloat' is not a supported property type; use `Double`",
                "Models.swift:4:5: error: '[String]' is not a supported property type; use `List<String>` for an array",
                "Models.swift:5:5: error: 'Person' is not a supported property type; if 'Person' is a model, declare it in this target as `class Person: Object`; if it is an enum, declare `enum Person: String, PersistableEnum`; to store another type, declare `extension Person: CustomPersistable` with `typealias PersistedType = String` (or another supported type) in this target; otherwise use one of \(supportedTypes)",
            ])
    }

    func testCustomPersistableTypesThatCannotBeStoredAreReported() {
        XCTAssertEqual(
            diagnostics(
                """
                struct Point: CustomPersistable { typealias PersistedType = PointObject }
                struct Tag: CustomPersistable { typealias PersistedType = String }
                struct Odd: FailableCustomPersistable { typealias PersistedType = UInt }
                final class PointObject: EmbeddedObject { @Persisted var x = 0.0 }
                final class Dog: Object {
                    @Persisted var point: Point
                    @Persisted(primaryKey: true) var tag: Tag
                    @Persisted var odd: Odd?
                    @Persisted(indexed: true) var site: URL
                }
                """),
            [
                "Models.swift:6:5: error: 'Point' is a CustomPersistable stored as 'PointObject'; Strata stores custom types as a non-optional value type (String, Int, Double, Data, ...), not as an object or an optional; map it to one of those",
                "Models.swift:7:5: error: 'tag' has the custom type Tag, which cannot be a primary key or indexed; store its persisted value in a property of its own type for that",
                "Models.swift:8:5: error: 'Odd' is a CustomPersistable stored as 'UInt', which cannot be stored: 'UInt' is not a supported property type; use a signed integer type such as `Int`",
                "Models.swift:9:5: error: 'site' has the custom type URL, which cannot be a primary key or indexed; store its persisted value in a property of its own type for that",
            ])
    }

    func testTwoPrimaryKeysAreRejectedAtTheSecond() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted(primaryKey: true) var _id: ObjectId
                    @Persisted(primaryKey: true) var name: String
                }
                """),
            [
                "Models.swift:3:5: error: 'Dog' already has the primary key '_id'; a model has at most one, write `@Persisted var name: String` (or `@Persisted(indexed: true)` to look it up fast)"
            ])
    }

    func testNonFinalModelIsAcceptedAsInTheSeeds() {
        // The seeds (and RealmSwift code) declare `class Dog: Object`; it needs no `final`.
        XCTAssertEqual(
            diagnostics(
                """
                import Strata

                class Dog: Object, ObjectKeyIdentifiable {
                    @Persisted var name = ""
                }
                """), [])
    }

    func testASubclassCannotDeclareASecondPrimaryKey() {
        XCTAssertEqual(
            diagnostics(
                """
                class Dog: Object {
                    @Persisted(primaryKey: true) var id = 0
                }
                class Puppy: Dog {
                    @Persisted(primaryKey: true) var tag = ""
                }
                class Helper: Formatter {}
                """),
            [
                "Models.swift:5:5: error: 'Puppy' already has the primary key 'id'; a model has at most one, write `@Persisted var tag: String` (or `@Persisted(indexed: true)` to look it up fast)"
            ])
    }

    func testListOfOptionalObjects() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Person: Object {
                    @Persisted var dogs: List<Dog?>
                }
                final class Dog: Object {}
                """),
            [
                "Models.swift:2:5: error: a List cannot hold optional objects; write `List<Dog>`"
            ])
    }

    func testLinkingObjectsWithAMissingOriginProperty() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Person: Object {
                    @Persisted var dogs: List<Dog>
                }
                final class Dog: Object {
                    @Persisted(originProperty: "dgos") var owners: LinkingObjects<Person>
                    @Persisted var walkers: LinkingObjects<Person>
                }
                """),
            [
                "Models.swift:5:5: error: LinkingObjects 'owners' names the origin property 'dgos', but Person has no property 'dgos' linking to Dog; write `@Persisted(originProperty: \"dogs\")`",
                "Models.swift:6:5: error: LinkingObjects 'walkers' needs its origin property: write `@Persisted(originProperty: \"dogs\") var walkers: LinkingObjects<Person>`",
            ])
    }

    func testLinkingObjectsWhoseOriginDoesNotLinkBack() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Person: Object {
                    @Persisted var name = ""
                }
                final class Dog: Object {
                    @Persisted(originProperty: "name") var owners: LinkingObjects<Person>
                }
                """),
            [
                "Models.swift:5:5: error: LinkingObjects 'owners' names the origin property 'name', but Person has no property 'name' linking to Dog; add a link to it, e.g. `@Persisted var dogs: List<Dog>` in Person"
            ])
    }

    func testToOneLinkMustBeOptional() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted var toy: DogToy
                }
                final class DogToy: Object {}
                """), ["Models.swift:2:5: error: a to-one link must be optional; write `@Persisted var toy: DogToy?`"])
    }

    func testPrimaryKeyOfUnsupportedTypeAndOnEmbeddedObjects() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Reading: Object {
                    @Persisted(primaryKey: true) var value = 0.0
                }
                final class Address: EmbeddedObject {
                    @Persisted(primaryKey: true) var street = ""
                }
                """),
            [
                "Models.swift:2:5: error: primary key 'value' has type Double; a primary key must be Int, String, ObjectId, UUID or a PersistableEnum with Int or String raw values (optional allowed), e.g. `@Persisted(primaryKey: true) var value: ObjectId`",
                "Models.swift:5:5: error: embedded object 'Address' cannot have a primary key; write `@Persisted var street: String`",
            ])
    }

    func testIndexOnUnsupportedType() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted(indexed: true) var weight: Double
                }
                """),
            [
                "Models.swift:2:5: error: 'weight' of type Double cannot be indexed; only Bool, Int, String, ObjectId, UUID, Date, AnyRealmValue and PersistableEnum properties can, remove `indexed: true`"
            ])
    }

    func testMissingOrUninferableType() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted var name
                    @Persisted var nickname = makeName()
                    @Persisted var toy = nil
                }
                """),
            [
                "Models.swift:2:5: error: 'name' needs a type: write `@Persisted var name: Type` (for example `String`)",
                "Models.swift:3:5: error: cannot tell the type of 'nickname' from its default value `makeName()`; write the type: `@Persisted var nickname: Type = makeName()`",
                "Models.swift:4:5: error: cannot tell the type of 'toy' from its default value `nil`; write the type: `@Persisted var toy: Type = nil`",
            ])
    }

    func testDeclarationFormsThatCannotBePersisted() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted let name = ""
                    @Persisted static var count = 0
                    @Persisted private var secret = ""
                    @Persisted var computed: Int { 1 }
                    @Persisted(primaryKey: isKey) var key = ""
                    @Persisted(unique: true) var code = ""
                }
                """),
            [
                "Models.swift:2:5: error: '@Persisted' properties must be declared with 'var'; write `@Persisted var`",
                "Models.swift:3:5: error: '@Persisted' cannot be used on a static property; remove 'static'",
                "Models.swift:4:5: error: '@Persisted' properties cannot be 'private', because the generated accessors in another file read and write them; remove 'private' (or use 'internal')",
                "Models.swift:5:5: error: '@Persisted' cannot be used on a computed property; store the value with `@Persisted var computed: Type`",
                "Models.swift:6:5: error: 'primaryKey:' must be the literal `true` or `false`, because the schema is read at build time",
                "Models.swift:7:5: error: '@Persisted' has no argument 'unique'; use primaryKey:, indexed:, originProperty: or originalName:",
            ])
    }

    func testCollectionsMisuse() {
        XCTAssertEqual(
            diagnostics(
                """
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
                """),
            [
                "Models.swift:2:5: error: Map keys must be String; write `Map<String, String>`",
                "Models.swift:3:5: error: a Map holds objects as optionals (a deleted object leaves nil); write `Map<String, DogToy?>`",
                "Models.swift:4:5: error: collections cannot be nested (List<Int> as a List element); model the inner collection as an object with a List property",
                "Models.swift:5:5: error: a collection property cannot be optional; write `List<Int>` (an empty collection stands for no values)",
                "Models.swift:6:5: error: a MutableSet cannot hold embedded objects; write `List<Address>`",
                "Models.swift:7:5: error: AnyRealmValue already holds `.none`; write `AnyRealmValue` without `?`",
            ])
    }

    func testEnumsNeedARawTypeAndCases() {
        XCTAssertEqual(
            diagnostics(
                """
                enum Mood: PersistableEnum { case happy }
                enum Empty: String, PersistableEnum {}
                enum Weight: Double, PersistableEnum { case light = 0.5 }
                enum Gauge: Float, PersistableEnum { case thin = 0.25 }
                enum Level: Int8, PersistableEnum { case low }
                """),
            [
                "Models.swift:1:1: error: PersistableEnum 'Mood' needs an Int, String, Float or Double raw type; write `enum Mood: String, PersistableEnum` (or `: Int`, `: Double`, ...)",
                "Models.swift:2:1: error: PersistableEnum 'Empty' has no cases; add at least one `case`, its first case is the default value",
            ])
    }

    func testModelClassNamesMustBeUniqueAlsoWhenNested() {
        XCTAssertEqual(
            diagnostics(
                """
                enum Namespace {
                    final class Inner: Object {}
                    final class Dog: Object {}
                }
                final class Dog: Object {}
                final class Dog: Object {}
                """),
            [
                "Models.swift:5:1: error: model class 'Dog' is declared twice (first at Models.swift:3) ('Namespace.Dog' and 'Dog' are both stored as 'Dog'); rename one of them",
                "Models.swift:6:1: error: model class 'Dog' is declared twice (first at Models.swift:3) ('Namespace.Dog' and 'Dog' are both stored as 'Dog'); rename one of them",
            ])
    }

    func testModelsTheGeneratedFileCannotReachAreRejectedWithTheFix() {
        XCTAssertEqual(
            diagnostics(
                """
                enum Box<T> {
                    final class InGeneric: Object {}
                }
                private enum Hidden {
                    final class InPrivate: Object {}
                }
                fileprivate final class PrivateModel: Object {}
                func make() {
                    final class Local: Object {}
                }
                final class Dog: Object {}
                struct Holder {
                    let make = { class Puppy: Dog {} }
                }
                final class Box<T>: Dog {}
                """),
            [
                "Models.swift:2:5: error: model class 'InGeneric' is nested in the generic type 'Box', whose classes the generated file cannot extend once for all its type arguments; move `class InGeneric: Object` out of 'Box'",
                "Models.swift:5:5: error: model class 'InPrivate' is nested in 'Hidden', which is 'private', so the generated file cannot reach it; remove 'private' from 'Hidden' (or move `class InPrivate: Object` out of it)",
                "Models.swift:7:1: error: model class 'PrivateModel' is 'fileprivate', but the generated file must reach it; remove 'fileprivate' (or use 'internal')",
                "Models.swift:9:5: error: model class 'Local' is declared inside a function or closure, where the generated file cannot reach it; move `class Local: Object` to the top level of its file (or into a type)",
                "Models.swift:13:18: error: model class 'Puppy' is declared inside a function or closure, where the generated file cannot reach it; move `class Puppy: Dog` to the top level of its file (or into a type)",
                "Models.swift:15:1: error: model class 'Box' is generic, but a model's schema is one per class, not one per type argument; remove the generic parameters from `class Box: Dog`",
            ])
    }

    func testPropertyObserversAreAcceptedAndComputedPropertiesAreNot() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @Persisted var name = "" {
                        willSet { print(newValue) }
                        didSet { print(oldValue) }
                    }
                    @Persisted var age = 0 { didSet {} }
                    @Persisted var label: String { get { "" } set {} }
                }
                """),
            [
                "Models.swift:7:5: error: '@Persisted' cannot be used on a computed property; store the value with `@Persisted var label: Type`"
            ])
    }

    func testLegacyRealmSwiftDeclarationsSayWhatToWrite() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Dog: Object {
                    @objc dynamic var name = ""
                    let toys = List<DogToy>()
                    var tags = MutableSet<String>()
                    let scores = Map<String, Int>()
                    let age = RealmProperty<Int?>()
                    let weight = RealmOptional<Double>()
                    let owners = LinkingObjects(fromType: Person.self, property: "dogs")
                    let cache = [String]()
                    override class func primaryKey() -> String? { "name" }
                    override class func indexedProperties() -> [String] { ["name"] }
                    override class func ignoredProperties() -> [String] { [] }
                }
                final class DogToy: Object {}
                final class Person: Object {}
                final class Settings: NSObject {
                    @objc dynamic var theme = ""
                    let recent = List<Int>()
                    override class func primaryKey() -> String? { nil }
                }
                """),
            [
                "Models.swift:2:5: error: 'name' is declared as RealmSwift's legacy `@objc dynamic var`, which Strata does not store; write `@Persisted var name = \"\"`",
                "Models.swift:3:5: error: 'toys' is declared as RealmSwift's legacy `let toys = List<...>()`, which Strata does not store; write `@Persisted var toys: List<DogToy>`",
                "Models.swift:4:5: error: 'tags' is declared as RealmSwift's legacy `var tags = MutableSet<...>()`, which Strata does not store; write `@Persisted var tags: MutableSet<String>`",
                "Models.swift:5:5: error: 'scores' is declared as RealmSwift's legacy `let scores = Map<...>()`, which Strata does not store; write `@Persisted var scores: Map<String, Int>`",
                "Models.swift:6:5: error: 'age' is declared as RealmSwift's legacy `RealmProperty`, which Strata does not store; write `@Persisted var age: Int?`",
                "Models.swift:7:5: error: 'weight' is declared as RealmSwift's legacy `RealmOptional`, which Strata does not store; write `@Persisted var weight: Double?`",
                "Models.swift:8:5: error: 'owners' is declared as RealmSwift's legacy `LinkingObjects(fromType:property:)`, which Strata does not read; write `@Persisted(originProperty: \"property\") var owners: LinkingObjects<Model>`",
                "Models.swift:10:5: error: 'primaryKey()' is RealmSwift's legacy way to name the primary key, which Strata does not read; remove it and write `@Persisted(primaryKey: true)` on the key property",
                "Models.swift:11:5: error: 'indexedProperties()' is RealmSwift's legacy way to index properties, which Strata does not read; remove it and write `@Persisted(indexed: true)` on each indexed property",
                "Models.swift:12:5: error: 'ignoredProperties()' is RealmSwift's legacy way to ignore properties, which Strata does not need; remove it: properties without `@Persisted` are not stored",
            ])
    }

    func testPropertiesMappingMustBeALiteralAndMapEachPropertyToItsOwnName() {
        XCTAssertEqual(
            diagnostics(
                """
                let names = ["name": "n"]
                final class Dog: Object {
                    @Persisted var name = ""
                    override class func propertiesMapping() -> [String: String] { names }
                }
                final class Cat: Object {
                    @Persisted var name = ""
                    @Persisted var nick = ""
                    @Persisted var age = 0
                    override class func propertiesMapping() -> [String: String] {
                        return ["name": "label", "nick": "label", "agee": "years", "age": ""]
                    }
                }
                final class Kitten: Cat {
                    override class func propertiesMapping() -> [String: String] { ["name": "n"] }
                }
                """),
            [
                "Models.swift:4:5: error: propertiesMapping() must return a dictionary literal of string literals, because the schema is read at build time; write `override class func propertiesMapping() -> [String: String] { [\"swiftName\": \"storedName\"] }`",
                "Models.swift:10:5: error: 'Cat.nick' would be stored as 'label', the stored name of 'name' too; give each property its own name in propertiesMapping()",
                "Models.swift:10:5: error: propertiesMapping() maps 'age' to an empty name; give it a stored name, or remove the entry",
                "Models.swift:11:51: warning: propertiesMapping() of 'Cat' maps 'agee', but 'Cat' declares no @Persisted property 'agee'; the entry has no effect (check the spelling; a property a superclass declares keeps the stored name that class gives it)",
                "Models.swift:15:68: warning: propertiesMapping() of 'Kitten' maps 'name', but 'Kitten' declares no @Persisted property 'name'; the entry has no effect (check the spelling; a property a superclass declares keeps the stored name that class gives it)",
            ])
    }

    func testLinksToAsymmetricObjectsAreRejected() {
        XCTAssertEqual(
            diagnostics(
                """
                final class Sensor: Object {
                    @Persisted var last: Reading?
                }
                final class Reading: AsymmetricObject {}
                """),
            [
                "Models.swift:2:5: error: objects cannot link to the asymmetric object 'Reading'; asymmetric objects are write-only, store its primary key instead"
            ])
    }

    func testValidSeedModelsHaveNoDiagnostics() {
        XCTAssertEqual(
            diagnostics(
                """
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
        XCTAssertEqual(
            diagnostics("final class A: Object { @Persisted var x: UInt }", file: "/abs/Sources/App/A.swift"),
            [
                "/abs/Sources/App/A.swift:1:25: error: 'UInt' is not a supported property type; use a signed integer type such as `Int`"
            ])
    }

    private let supportedTypes =
        "Bool, Int, Int8, Int16, Int32, Int64, Float, Double, String, Data, Date, Decimal128, ObjectId, UUID, AnyRealmValue, URL, a CustomPersistable type, an optional of these, List<T>, MutableSet<T>, Map<String, T>, LinkingObjects<T>, a model class declared in this target (as `T?`), or a PersistableEnum"
}
