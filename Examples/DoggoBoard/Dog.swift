import Foundation
import Strata

/// A dog on the board: the DoggoDB `Dog`, cut down to what the board shows and edits.
class Dog: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: UUID
    @Persisted var name = ""
    @Persisted var favoriteToy = ""
}
