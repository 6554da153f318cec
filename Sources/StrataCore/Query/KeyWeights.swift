/// How many times each object key appears among a collection's keys, for counting a collection's
/// matches while the table is scanned: a direct table indexed by `key - first` when the keys are
/// dense enough (as ``KeyPositions``), else a binary search over the distinct keys.
struct KeyWeights {
    private let first: Int64
    /// `table[key - first]` is the number of times `key` appears; empty when the keys are sparse.
    private let table: [UInt32]
    /// The distinct keys, ascending, and their counts: the sparse form.
    private let keys: [Int64]
    private let counts: [UInt32]

    init(_ candidates: [Int64]) {
        guard let low = candidates.min(), let high = candidates.max() else {
            (first, table, keys, counts) = (0, [], [], [])
            return
        }
        first = low
        let (span, overflow) = high.subtractingReportingOverflow(low)
        if !overflow,
            span < Int64(candidates.count) &* Int64(KeyPositions.tableSpreadLimit) &+ Int64(KeyPositions.tableSlack)
        {
            var table = [UInt32](repeating: 0, count: Int(span) + 1)
            for key in candidates { table[Int(key &- low)] &+= 1 }
            (self.table, keys, counts) = (table, [], [])
            return
        }
        var sorted = candidates.sorted()
        var counts: [UInt32] = []
        var write = 0
        for read in sorted.indices {
            if write > 0 && sorted[write - 1] == sorted[read] {
                counts[write - 1] &+= 1
            } else {
                sorted[write] = sorted[read]
                counts.append(1)
                write += 1
            }
        }
        sorted.removeLast(sorted.count - write)
        (table, keys, self.counts) = ([], sorted, counts)
    }

    /// The number of times `key` appears among the candidates (0 when it does not).
    @inline(__always)
    func weight(of key: Int64) -> UInt32 {
        if !table.isEmpty {
            let (offset, overflow) = key.subtractingReportingOverflow(first)
            guard !overflow, offset >= 0, offset < Int64(table.count) else { return 0 }
            return table[Int(offset)]
        }
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low &+ high) >> 1
            if keys[mid] < key { low = mid &+ 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? counts[low] : 0
    }
}
