import StrataStorage
import StrataQuery

/// Per-object match bytes for one cluster: one buffer per level of the predicate.
struct MatchMasks {
    private(set) var capacity: Int
    let levels: Int
    private(set) var storage: UnsafeMutablePointer<UInt8>

    init(levels: Int, capacity: Int = 1_024) {
        self.levels = levels
        self.capacity = capacity
        storage = .allocate(capacity: levels * capacity)
    }

    /// Makes room for `m` objects per level (a cluster from an older file may hold more than 1,024).
    mutating func reserve(_ m: Int) {
        guard m > capacity else { return }
        storage.deallocate()
        capacity = m
        storage = .allocate(capacity: levels * capacity)
    }

    func level(_ i: Int) -> UnsafeMutablePointer<UInt8> { storage + i * capacity }

    func release() { storage.deallocate() }
}
