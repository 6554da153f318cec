import Foundation
import Strata

// Models of the observation and quick-write tests: seed 002's DoggoDB Dog with a String
// favoriteToy (`EditDogDetails`), Person with a list of dogs (`AddDogToPersonView`), and the
// Company / Employee models of its explicit-write example.

/// The DoggoDB `Dog` of seed 002's `EditDogDetails` and `AddDogToPersonView`.
class QuickDog: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var breed = ""
    @Persisted var weight = 0
    @Persisted var favoriteToy = ""
    @Persisted var profileImageUrl: String?
    @Persisted var tags: MutableSet<String>
    @Persisted var vetNotes: Map<String, String>
}

/// The DoggoDB `Person` of seed 002 (`$person.dogs.append(dog)`).
class QuickPerson: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var dogs: List<QuickDog>
}

/// Seed 002's `Company`, with employees and a list of dogs of its own.
class QuickCompany: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var companyName = ""
    @Persisted var employees: List<QuickEmployee>
    @Persisted var dogs: List<QuickDog>
}

/// Seed 002's `Employee`, who has dogs.
class QuickEmployee: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var dogs: List<QuickDog>
}

/// An unrelated class: commits to it must not reach trackings of the classes above.
class QuickBone: Object {
    @Persisted var size = 0
}
