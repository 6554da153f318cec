/// The positions of sorted, distinct object keys, for many membership tests: a direct table
/// indexed by `key - first` when the keys are dense enough (object keys usually are: they are
/// handed out in order), else a binary search.
struct KeyPositions {
    /// The keys, ascending, without repeats.
    let keys: [Int64]
    /// `table[key - first]` is the position of `key` in `keys`, or -1; empty when the keys are
    /// too sparse for a table.
    private let table: [Int32]
    private let first: Int64

    /// Keys spanning at most this many values per key, plus `tableSlack`, get a direct table.
    static let tableSpreadLimit = 8
    static let tableSlack = 1_024

    init(_ keys: [Int64]) {
        self.keys = keys
        first = keys.first ?? 0
        guard let last = keys.last, keys.count < Int(Int32.max) else {
            table = []
            return
        }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span < Int64(keys.count) &* Int64(Self.tableSpreadLimit) &+ Int64(Self.tableSlack) else {
            table = []
            return
        }
        var table = [Int32](repeating: -1, count: Int(span) + 1)
        let first = self.first
        for (i, key) in keys.enumerated() { table[Int(key &- first)] = Int32(i) }
        self.table = table
    }

    /// The position of `key` in ``keys``, or nil.
    @inline(__always)
    func position(of key: Int64) -> Int? {
        if !table.isEmpty {
            let (offset, overflow) = key.subtractingReportingOverflow(first)
            guard !overflow, offset >= 0, offset < Int64(table.count) else { return nil }
            let p = table[Int(offset)]
            return p < 0 ? nil : Int(p)
        }
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low &+ high) >> 1
            if keys[mid] < key { low = mid &+ 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }
}
