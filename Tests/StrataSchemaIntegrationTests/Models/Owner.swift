import Foundation
import Strata

/// Links of every shape: to-one, list, map of optional objects, embedded objects.
final class Owner: Object {
    @Persisted(primaryKey: true) var _id: UUID
    @Persisted(indexed: true) var name = ""
    @Persisted var pets: List<Pet>
    @Persisted var favorite: Pet?
    @Persisted var petsByName: Map<String, Pet?>
    @Persisted var address: Address?
    @Persisted var formerAddresses: List<Address>
}

final class Address: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

final class Reading: AsymmetricObject {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var value = 0.0
}
