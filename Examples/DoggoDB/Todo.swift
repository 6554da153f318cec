import Strata

/// A to-do created from an actor (Realm docs, "Use Realm with Actors").
class Todo: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var owner = ""
    @Persisted var status = ""
}
