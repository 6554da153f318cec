import Foundation
import Strata

public final class Shelf: Object {
    @Persisted var _id = ObjectId.generate()
    @Persisted var label = "new \"shelf\""
    @Persisted var books: List<Book>
    @Persisted var size: Int16 = -1
    @Persisted var ratio = -0.5
    @Persisted var data = Data()
    @Persisted var id2 = UUID()
    @Persisted var mixed: AnyRealmValue = .none
    @Persisted var uniqueCodes: MutableSet<Int64>
}

public enum Genre: Int, PersistableEnum {
    case fiction = 1
    case poetry
}

/// A model whose name matches a runtime type: generated code qualifies runtime names with `Strata.`.
final class Property: Object {
    @Persisted(primaryKey: true) var address = ""
    @Persisted var rooms = 0
}
