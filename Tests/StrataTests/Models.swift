import Foundation
import Strata

// The seeds' models (Realm docs, "CRUD" and "Create Objects"), plus a few for edge cases.

class Dog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var breed: String?
    @Persisted var favoriteToy: DogToy?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}

class DogToy: Object {
    @Persisted var name = ""
}

class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<Dog>
    @Persisted var address: Address?
}

class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

class Item: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var status = ""
    @Persisted var title = ""
    @Persisted var priority = 0
    @Persisted var score = 0.0
    @Persisted var due: Date?
    @Persisted var tags: MutableSet<String>
    @Persisted var labels: Map<String, String>
    @Persisted var extra: AnyRealmValue
}

/// An `Int64` property, for queries with values a `Double` cannot hold.
class Counter: Object {
    @Persisted var total: Int64 = 0
}
