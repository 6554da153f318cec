import Strata

/// A person who owns dogs (Realm docs, "Append an Object to a List").
class Person: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var dogs: List<Dog>
}
