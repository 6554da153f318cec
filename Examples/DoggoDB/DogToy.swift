import Strata

/// A dog's favorite toy, linked from `Dog.favoriteToy`.
class DogToy: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
}
