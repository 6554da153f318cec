import Foundation
import Strata

/// Declares `Codable`: the generated file gives it `encode(to:)`.
final class Parcel: Object, Codable {
    @Persisted(primaryKey: true) var code = ""
    @Persisted var weight = 0.0
}

/// Writes its own `encode(to:)`: the generated file adds none.
final class Envelope: Object, Codable {
    @Persisted var stamp = ""

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stamp)
    }
}
