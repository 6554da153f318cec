import Foundation
import Strata

// The Realm-layer part of the fuzzer opens files written with these models (StrataPlugin
// generates their schema and accessors).

final class FuzzOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var pets: List<FuzzPet>
    @Persisted var tags: MutableSet<String>
    @Persisted var labels: Map<String, String>
    @Persisted var address: FuzzAddress?
}

final class FuzzPet: Object {
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var weight = 0.0
    @Persisted var born: Date?
    @Persisted var nickname: String?
    @Persisted(originProperty: "pets") var owners: LinkingObjects<FuzzOwner>
}

final class FuzzAddress: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}
