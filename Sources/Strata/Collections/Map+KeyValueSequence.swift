import Foundation

extension Map {
    /// The entries of a map as `(key:, value:)` pairs, in ascending key order: what
    /// `asKeyValueSequence()` gives. It holds the entries the map had when it was made.
    public struct KeyValueSequence: Sequence {
        private let entries: [(key: Key, value: Value)]

        init(_ entries: [(key: Key, value: Value)]) {
            self.entries = entries
        }

        /// An iterator over the pairs, in ascending key order.
        public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
            entries.makeIterator()
        }
    }

    /// The map's entries as `(key:, value:)` pairs, in ascending key order:
    /// `for (name, score) in scores.asKeyValueSequence() { ... }`.
    public func asKeyValueSequence() -> KeyValueSequence {
        KeyValueSequence(Array(self))
    }
}
