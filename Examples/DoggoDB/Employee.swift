import Strata

/// An employee, who has dogs of their own.
class Employee: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted(indexed: true) var name = ""
    @Persisted var dogs: List<Dog>
    @Persisted(originProperty: "employees") var employers: LinkingObjects<Company>
}
