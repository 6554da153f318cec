import Foundation
import Strata

// `Codable` models: Swift synthesizes `init(from:)`, StrataPlugin generates `encode(to:)`.

final class CodableToy: Object, Codable {
    @Persisted var name = ""
    @Persisted(originProperty: "toy") var owners: LinkingObjects<CodableDog>
}

final class CodableCollar: EmbeddedObject, Codable {
    @Persisted var color = ""
}

final class CodableDog: Object, Codable {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var nickname: String?
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var chip: UUID?
    @Persisted var toy: CodableToy?
    @Persisted var collar: CodableCollar?
    @Persisted var scores: List<Int>
    @Persisted var toys: List<CodableToy>
    @Persisted var labels: MutableSet<String>
    @Persisted var weights: Map<String, Double>
}
