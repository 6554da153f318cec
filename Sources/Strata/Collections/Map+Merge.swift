/// Merging entries into a map and reading one value, as RealmSwift's `Map` has them. A merge is
/// one change of the stored map (one write when managed, inside a write transaction).
extension Map {
    /// Adds the entries of `sequence`; for a key the map already holds, `combine` gets the
    /// current and the new value and returns the one to keep. If `combine` throws, nothing changes.
    public func merge<S: Sequence>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (key: Key, value: Value) {
        var merged = snapshot
        for (key, value) in sequence {
            if let current = merged[key] {
                merged[key] = try combine(current, value)
            } else {
                merged[key] = value
            }
        }
        let result = merged
        mutate { $0 = result }
    }

    /// Adds the entries of `other`, as `merge(_:uniquingKeysWith:)` with a sequence does.
    public func merge(_ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.map { (key: $0.key, value: $0.value) }, uniquingKeysWith: combine)
    }

    /// The value for `key`, or nil when the map has no entry for it.
    public func object(forKey key: Key) -> Value? {
        self[key]
    }
}
