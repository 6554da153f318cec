/// What one object of a synced table is, for the merge: per field a value and the clock of the
/// write that set it, and the clock of the latest delete (the tombstone; `.zero` if none).
///
/// The merge is the same on every replica and on the server (Docs/Sync.md, "Conflicts"): a
/// field takes an incoming write whose clock is above both its own clock and the tombstone; a
/// delete raises the tombstone and resets every field written before it to its default; the
/// object exists while some field was written after the tombstone. That makes the result a
/// function of the set of writes and deletes seen, whatever their order of arrival.
package struct SyncRecord<Value: Equatable & Sendable>: Equatable, Sendable {
    package struct Field: Equatable, Sendable {
        package var value: Value
        package var clock: SyncClock
        package init(value: Value, clock: SyncClock) {
            self.value = value
            self.clock = clock
        }
    }

    /// Whether the object exists.
    package var alive: Bool
    /// The fields by name, when alive (every field of the table then).
    package var fields: [String: Field]
    /// The clock of the latest delete, `.zero` if none.
    package var tombstone: SyncClock

    package init(alive: Bool, fields: [String: Field], tombstone: SyncClock) {
        self.alive = alive
        self.fields = fields
        self.tombstone = tombstone
    }

    /// A record that never existed.
    package static var absent: SyncRecord { SyncRecord(alive: false, fields: [:], tombstone: .zero) }

    /// Applies a write of `incoming` fields (each with its clock). `defaults` gives every field
    /// of the table its default value, for an object this write brings into existence. Returns
    /// the names of the fields whose value or clock changed (all of them when it was created).
    @discardableResult
    package mutating func applyWrite(_ incoming: [String: Field], defaults: [String: Value]) -> Set<String> {
        var changed = Set<String>()
        if !alive {
            guard incoming.values.contains(where: { $0.clock > tombstone }) else { return [] }
            alive = true
            fields = defaults.mapValues { Field(value: $0, clock: tombstone) }
            changed = Set(defaults.keys)
        }
        for (name, f) in incoming {
            let current = fields[name]?.clock ?? tombstone
            if f.clock > current && f.clock > tombstone {
                fields[name] = f
                changed.insert(name)
            }
        }
        return changed
    }

    /// Applies a delete stamped `clock`. Returns whether anything changed.
    @discardableResult
    package mutating func applyDelete(_ clock: SyncClock, defaults: [String: Value]) -> Bool {
        guard clock > tombstone else { return false }
        tombstone = clock
        guard alive else { return true }
        for (name, f) in fields where f.clock <= clock {
            fields[name] = Field(value: defaults[name] ?? f.value, clock: clock)
        }
        if !fields.values.contains(where: { $0.clock > clock }) {
            alive = false
            fields = [:]
        }
        return true
    }

    /// The highest clock in the record (fields and tombstone).
    package var maxClock: SyncClock {
        fields.values.reduce(tombstone) { max($0, $1.clock) }
    }
}
