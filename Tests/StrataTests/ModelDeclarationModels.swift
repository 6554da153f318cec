import Foundation
import Strata

// Model declarations RealmSwift accepts that the StrataPlugin used to reject or miscompile
// (declarations RealmSwift accepts). Each is compiled by the plugin like any
// other model of this target.

// MARK: Nested model classes

/// A namespace holding model classes, as apps group models by feature.
enum Kennel {
    /// Stored as "NestedBreed" (its own name; `className()` is the same).
    final class NestedBreed: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var origin: Kennel.NestedCountry?
        @Persisted var tag: Registry.NestedTag?
    }
}

extension Kennel {
    /// Declared in an extension of the namespace.
    class NestedCountry: Object {
        @Persisted var name = ""
        @Persisted(originProperty: "origin") var breeds: LinkingObjects<Kennel.NestedBreed>
    }
}

struct Registry {
    /// An embedded model nested in a struct.
    final class NestedTag: EmbeddedObject {
        @Persisted var code = ""
    }
}

// MARK: Property observers

/// `willSet`/`didSet` on `@Persisted` properties, recording what they saw.
final class ObservedDog: Object {
    /// What the observers saw, in order (not persisted).
    var log: [String] = []
    @Persisted var name = "" {
        willSet { log.append("willSet \(name) -> \(newValue)") }
        didSet { log.append("didSet \(oldValue) -> \(name)") }
    }
    @Persisted var age = 0 {
        didSet { log.append("age \(oldValue) -> \(age)") }
    }
}

// MARK: Subclasses of model classes

/// The root of a model class hierarchy.
class InhAnimal: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// A subclass: stored as "InhCat", with InhAnimal's properties first; `lives` is stored as
/// "lives_left" (also in InhKitten, which inherits the property).
class InhCat: InhAnimal {
    @Persisted var lives = 9
    @Persisted var toy: InhToy?

    override class func propertiesMapping() -> [String: String] {
        ["lives": "lives_left"]
    }
}

/// A subclass of a subclass, with an observed property.
final class InhKitten: InhCat {
    /// What `weeks`'s observer saw (not persisted).
    var log: [String] = []
    @Persisted var weeks = 0 {
        didSet { log.append("weeks \(oldValue) -> \(weeks)") }
    }
}

/// Linked from a property a subclass declares.
final class InhToy: Object {
    @Persisted var label = ""
    @Persisted(originProperty: "toy") var cats: LinkingObjects<InhCat>
}

/// Links to classes of the hierarchy.
final class InhShelter: Object {
    @Persisted var animals: List<InhAnimal>
    @Persisted var cats: List<InhCat>
    @Persisted var star: InhKitten?
}

// MARK: PersistableEnum raw types and enum primary keys

enum EnumSize: Double, PersistableEnum {
    case small = 0.5, large = 2.5
}

enum EnumGauge: Float, PersistableEnum {
    case thin = 0.25, thick = 1.75
}

enum EnumSlot: String, PersistableEnum {
    case north, south
}

enum EnumLevel: Int, PersistableEnum {
    case low = 1, high = 2
}

/// Enums with floating-point raw values.
final class EnumShapes: Object {
    @Persisted var size = EnumSize.small
    @Persisted var gauge: EnumGauge?
    @Persisted var sizes: List<EnumSize>
}

/// A `String`-backed enum as the primary key.
final class EnumKeyedSlot: Object {
    @Persisted(primaryKey: true) var slot: EnumSlot
    @Persisted var note = ""
}

/// An optional `Int`-backed enum as the primary key.
final class EnumKeyedLevel: Object {
    @Persisted(primaryKey: true) var level: EnumLevel?
    @Persisted var note = ""
}

// MARK: propertiesMapping()

/// Properties stored under other names than their Swift names.
final class MappedPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var firstName = ""
    @Persisted var age = 0
    @Persisted var friend: MappedPerson?
    @Persisted var tags: List<String>
    @Persisted(originProperty: "friend") var friendOf: LinkingObjects<MappedPerson>

    override class func propertiesMapping() -> [String: String] {
        ["firstName": "first_name", "age": "age_years", "friend": "best_friend"]
    }
}
