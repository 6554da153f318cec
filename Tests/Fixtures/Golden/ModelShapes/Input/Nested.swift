import Foundation
import Strata

enum Kennel {
    /// Stored as "Breed"; generated code spells it `Kennel.Breed`.
    final class Breed: Object {
        @Persisted(primaryKey: true) var size: Size?
        @Persisted var weight = Weight.light
        @Persisted var tag: Kennel.Tag?
    }

    struct Namespace {}
}

extension Kennel {
    final class Tag: EmbeddedObject {
        @Persisted var code = ""
        @Persisted(originProperty: "tag") var breeds: LinkingObjects<Kennel.Breed>
    }
}

enum Size: String, PersistableEnum {
    case small, large
}

enum Weight: Double, PersistableEnum {
    case light = 0.5, heavy = 40.0
}
