internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// Iterates a `Results` value over the keys that matched when iteration began.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm.
public struct ResultsIterator<Element: Object>: IteratorProtocol {
    let realm: Realm?
    let binding: TableBinding?
    let keys: [Int64]
    var position = 0

    /// The next object, or nil at the end.
    public mutating func next() -> Element? {
        guard position < keys.count, let realm, let binding else { return nil }
        defer { position += 1 }
        return realm.object(binding, key: keys[position]) as? Element
    }
}
