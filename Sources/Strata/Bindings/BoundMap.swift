import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A binding to a `Map` (`$dog.vetNotes`) whose `set(object:for:)` writes implicitly, in a quick
/// write (a binding's subscript cannot be assigned through, hence the method).
///
/// ```swift
/// $dog.vetNotes.set(object: "healthy", for: "2024")
/// $dog.vetNotes.set(object: nil, for: "2023")    // removes the key
/// ```
///
/// ## Concurrency
/// Use it on the thread of the realm the map's writes go to.
public protocol BoundMap {
    /// The bound map.
    associatedtype Value

    /// The bound map (frozen when it comes from a property wrapper).
    var wrappedValue: Value { get }
}

extension BoundMap where Value: RealmKeyedCollection {
    /// The value stored for `key`.
    public subscript(key: Value.Key) -> Value.Value? {
        wrappedValue[key]
    }

    /// Stores `object` for `key` in the bound map, or removes `key` when `object` is nil.
    public func set<K, V>(object: V?, for key: K) where Value == Map<K, V> {
        guard let map = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: map.realm) {
            if let object {
                map[key] = object
            } else {
                map.removeObject(for: key)
            }
        }
    }
}

extension Binding: BoundMap where Value: RealmKeyedCollection {}
