import Foundation

extension Realm {
    /// Deletes every object the values of `map` link to (nil values are skipped), inside a
    /// write transaction; the map's entries for them then hold nil, as for any deleted object.
    ///
    /// ```swift
    /// try realm.write { realm.delete(kennel.dogsByName) }
    /// ```
    public func delete<Key, Value: ObjectBase>(_ map: Map<Key, Value?>) {
        delete(map.values.compactMap { $0 })
    }
}
