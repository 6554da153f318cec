import Foundation
import Strata

/// Public models get public generated conformances.
public final class Book: Object {
    @Persisted(primaryKey: true) public var isbn: String
    @Persisted(indexed: true) public var title = ""
    @Persisted public var published = Date()
    @Persisted public var price: Decimal128 = "12.50"
    @Persisted public var genre: Genre?
    @Persisted public var ratings: List<Int>
    @Persisted public var notes: Map<String, String?>
    @Persisted(originProperty: "books") public var shelves: LinkingObjects<Shelf>

    /// Not persisted: ignored by the generator.
    public var displayTitle: String { title.uppercased() }
}

/// A nested type that is not a model is ignored.
public struct Helper {
    var value = 0
}
