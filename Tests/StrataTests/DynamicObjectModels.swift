import Foundation
import Strata

// Models of the dynamic API tests (DynamicObjectTests, DynamicMigrationLinkTests): written
// with their classes, then read and written as `DynamicObject`s, also by realms whose
// configuration does not name them.

/// A dog with an `Int` primary key, an optional property and a link back to its owner.
class DynamicDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname: String?
    @Persisted var owner: DynamicPerson?
}

/// An owner with every kind of collection, an embedded address and an `AnyRealmValue`.
class DynamicPerson: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var dogs: List<DynamicDog>
    @Persisted var favorites: MutableSet<DynamicDog>
    @Persisted var dogsByRole: Map<String, DynamicDog?>
    @Persisted var scores: List<Int>
    @Persisted var tags: MutableSet<String>
    @Persisted var address: DynamicAddress?
    @Persisted var anything: AnyRealmValue
    @Persisted var birthday: Date?
    @Persisted(originProperty: "owner") var ownedDogs: LinkingObjects<DynamicDog>
}

/// Embedded in `DynamicPerson`.
class DynamicAddress: EmbeddedObject {
    @Persisted var city = ""
}

/// A class written by one configuration and read by realms whose configuration leaves it out.
class DynamicToy: Object {
    @Persisted var name = ""
    @Persisted var weight = 0.0
    @Persisted var dog: DynamicDog?
}

/// Stores `title` under the name `toy_title` (`propertiesMapping()`).
class DynamicMappedToy: Object {
    @Persisted var title = ""
    override class func propertiesMapping() -> [String: String] { ["title": "toy_title"] }
}
