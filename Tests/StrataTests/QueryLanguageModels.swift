import Foundation
import Strata

// Models for the subquery, aggregate, range and AnyRealmValue accessor tests of `where { }`.

/// Owns pets through a list and a set, with values of every collection kind.
class QLOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var nickname: String?
    @Persisted var rank: Int?
    @Persisted var pets: List<QLPet>
    @Persisted var petSet: MutableSet<QLPet>
    @Persisted var scores: List<Int>
    @Persisted var ratings: Map<String, Double>
    @Persisted var value: AnyRealmValue
}

/// A pet, linked back to its owners.
class QLPet: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var weight: Double?
    @Persisted(originProperty: "pets") var owners: LinkingObjects<QLOwner>
}
