import Foundation
import Strata

/// A dog of the DoggoDB app (Realm docs, "Use Create to Copy an Object Into the Realm").
class Dog: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: UUID
    @Persisted var name = ""
    @Persisted var breed = ""
    @Persisted var weight = 0
    @Persisted var favoriteToy: DogToy?
    @Persisted var profileImageUrl: String?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
}
