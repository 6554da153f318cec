/// How many snapshots of this handle pin each version: (version, count) pairs sorted by version,
/// so the oldest pinned version is the first.
///
/// A sorted array rather than a dictionary: a handle pins few distinct versions at a time (its
/// open read transactions and frozen realms), and the first dictionary of a new key type a process
/// allocates looks up the key's `Hashable` conformance by scanning every conformance record of
/// every loaded library (about 0.4M instructions under callgrind), which the first open of a file
/// paid here.
///
/// ## Concurrency
/// A value type; `Database` keeps its instance under `stateLock`.
package struct PinCounts {
    private var entries: [(version: UInt64, count: Int)] = []

    /// No pins.
    package init() {}

    /// The number of distinct versions pinned.
    package var versionCount: Int { entries.count }

    /// The oldest pinned version, or nil when nothing is pinned.
    package var oldest: UInt64? { entries.first?.version }

    /// The number of pins on `version` (0 when it has none).
    package func count(of version: UInt64) -> Int {
        let i = index(of: version)
        return i < entries.count && entries[i].version == version ? entries[i].count : 0
    }

    /// Adds a pin on `version`.
    package mutating func pin(_ version: UInt64) {
        let i = index(of: version)
        if i < entries.count && entries[i].version == version {
            entries[i].count += 1
        } else {
            entries.insert((version, 1), at: i)
        }
    }

    /// Removes a pin on `version`; false (and no change) when `version` has none.
    @discardableResult
    package mutating func unpin(_ version: UInt64) -> Bool {
        let i = index(of: version)
        guard i < entries.count && entries[i].version == version else { return false }
        if entries[i].count == 1 { entries.remove(at: i) } else { entries[i].count -= 1 }
        return true
    }

    /// The position of `version`, or where it would be inserted (binary search).
    private func index(of version: UInt64) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].version < version { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
