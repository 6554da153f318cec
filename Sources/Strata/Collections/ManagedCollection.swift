import Foundation

// What managed `List`, `MutableSet` and `Map` share: where the collection lives (the owning
// object and the property), reading its stored value once per realm version, and writing a new
// value through `Realm.setPropertyValue`.
//
// A managed collection is a view: it holds no elements of its own. Every read asks the owner's
// `ManagedObjectState` for the decoded value, which is cached there keyed by `Realm.stamp`
// (the same pattern as `ManagedObjectState.row()`), so `person.dogs[i]` in a loop decodes the
// list once per realm version, not once per element, even though each `person.dogs` returns a
// new view. A mutation reads the current value, changes it and writes the whole value back
// (collections are stored inline in the owner's row, see Decisions), which bumps the stamp and
// so drops the cache.

/// Decodes the elements of a stored list or set value.
func _decodeElements<Element: RealmCollectionValue>(_ values: [PropertyValue], as _: Element.Type) -> [Element]? {
    var elements: [Element] = []
    elements.reserveCapacity(values.count)
    for value in values {
        guard let element = Element._strataFromPropertyValue(value) else { return nil }
        elements.append(element)
    }
    return elements
}

/// Reports an index outside `0..<count` (or `0...count` when `allowingEnd`) of a mutation, with
/// RealmSwift's message; returns whether the index is valid.
func _checkIndex(_ index: Int, count: Int, allowingEnd: Bool = false) -> Bool {
    let limit = allowingEnd ? count + 1 : count
    if index >= 0 && index < limit { return true }
    let bound = allowingEnd ? "less than or equal to \(count)" : "less than \(count)"
    return Realm.violation("Index \(index) is out of bounds (must be \(bound)).", fallback: false)
}
