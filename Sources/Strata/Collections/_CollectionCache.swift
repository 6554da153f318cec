import Foundation

/// A decoded collection value and the realm stamp it was read at. Not API.
///
/// ## Concurrency
/// Not `Sendable`; held by a `ManagedObjectState`.
final class _CollectionCache<Value> {
    let stamp: UInt64
    let value: Value

    init(stamp: UInt64, value: Value) {
        self.stamp = stamp
        self.value = value
    }
}
