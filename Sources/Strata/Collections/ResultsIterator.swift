internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// Iterates a `Results` value over the keys that matched when iteration began.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm.
public struct ResultsIterator<Element: RealmCollectionValue>: IteratorProtocol {
    let realm: Realm?
    let binding: TableBinding?
    let keys: [Int64]
    /// The elements of results of values (empty for object results).
    let values: [Element]
    var position = 0

    init(realm: Realm?, binding: TableBinding?, keys: [Int64]) {
        self.realm = realm
        self.binding = binding
        self.keys = keys
        self.values = []
    }

    init(values: [Element]) {
        self.realm = nil
        self.binding = nil
        self.keys = []
        self.values = values
    }

    /// The next object (or value), or nil at the end.
    public mutating func next() -> Element? {
        if position < values.count {
            defer { position += 1 }
            return values[position]
        }
        guard position < keys.count, let realm, let binding else { return nil }
        defer { position += 1 }
        return _resultsElement(realm.object(binding, key: keys[position]), as: Element.self)
    }
}
