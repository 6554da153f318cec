/// The state of the `data` tree after some number of crash-mode commits.
public struct StressModel {
    public let seed: UInt64
    public private(set) var commits = 0
    public private(set) var entries: [[UInt8]: [UInt8]] = [:]

    public init(seed: UInt64) { self.seed = seed }

    /// Applies commits up to `k` (never backwards: the model only moves forward).
    public mutating func advance(to k: Int) {
        precondition(k >= commits, "the model cannot go back from commit \(commits) to \(k)")
        while commits < k {
            commits += 1
            for op in StressWorkload.ops(seed: seed, commit: commits) {
                switch op {
                case .put(let key, let value): entries[key] = value
                case .delete(let key): entries[key] = nil
                }
            }
        }
    }

    /// The entries in key order, as a tree scan returns them.
    public var sorted: [([UInt8], [UInt8])] {
        entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.key, $0.value) }
    }
}
