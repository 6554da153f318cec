/// Values by model class (table bindings): a small open-addressing hash table keyed by the
/// class's `ObjectIdentifier`, with the subscript and `removeAll()` of the dictionary it replaces.
///
/// Not a `[ObjectIdentifier: Value]`: the first `Set` or `Dictionary` with a given key type
/// that a process allocates looks up the key's `Hashable` conformance by scanning every conformance
/// record of every loaded library (about 0.4M instructions under callgrind, the largest single
/// cost of a process's first `Realm(configuration:)`). This table hashes the identifier's bits
/// itself and needs no conformance.
///
/// ## Concurrency
/// A value type; each owner guards its instance (a realm's state is confined to its realm, a
/// file's bindings are under the file's lock).
struct TypeTable<Value> {
    /// Power-of-two many slots (or none), at most half of them used.
    private var slots: [(key: ObjectIdentifier, value: Value)?] = []
    private(set) var count = 0

    /// The value of the class `id` names, or nil; setting nil removes it.
    subscript(id: ObjectIdentifier) -> Value? {
        get {
            guard !slots.isEmpty else { return nil }
            var i = slot(of: id)
            while let entry = slots[i] {
                if entry.key == id { return entry.value }
                i = (i + 1) & (slots.count - 1)
            }
            return nil
        }
        set {
            if let newValue { insert(newValue, for: id) } else { remove(id) }
        }
    }

    /// Removes every value (keeping no storage).
    mutating func removeAll() {
        slots = []
        count = 0
    }

    /// The slot where probing for `id` starts: the identifier's address bits, mixed (Fibonacci
    /// hashing, so that aligned addresses spread over the table).
    private func slot(of id: ObjectIdentifier) -> Int {
        let bits = UInt(bitPattern: Int(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: bits >> UInt(UInt.bitWidth - slots.count.trailingZeroBitCount))
    }

    private mutating func insert(_ value: Value, for id: ObjectIdentifier) {
        if (count + 1) * 2 > slots.count { grow() }
        var i = slot(of: id)
        while let entry = slots[i] {
            if entry.key == id {
                slots[i] = (id, value)
                return
            }
            i = (i + 1) & (slots.count - 1)
        }
        slots[i] = (id, value)
        count += 1
    }

    private mutating func remove(_ id: ObjectIdentifier) {
        // Rebuilt without `id`: removal is rare (schema changes), and rebuilding keeps the probe
        // sequences intact without tombstones.
        guard self[id] != nil else { return }
        let kept = slots.compactMap { $0 }.filter { $0.key != id }
        removeAll()
        for entry in kept { insert(entry.value, for: entry.key) }
    }

    private mutating func grow() {
        let old = slots.compactMap { $0 }
        slots = Array(repeating: nil, count: Swift.max(8, slots.count * 2))
        count = 0
        for entry in old { insert(entry.value, for: entry.key) }
    }
}
