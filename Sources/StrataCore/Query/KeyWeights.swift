/// How many times each object key appears among a collection's keys, for counting and summing a
/// collection's matches while the table is scanned: a direct table indexed by `key - first` when
/// the keys are dense enough (as ``KeyPositions``), one byte per key unless a key appears more
/// than 255 times; else a binary search over the distinct keys.
///
/// The byte table lets a cluster whose keys run consecutively (most clusters of a table filled in
/// key order) weigh its objects from one contiguous run of bytes (``byteRun(from:count:)``).
struct KeyWeights {
    /// The smallest key (0 when there are none): the direct table's first entry.
    let first: Int64
    /// Entries of the direct table (0 when the keys are sparse).
    let span: Int
    /// Whether some key appears more than once.
    let repeats: Bool
    /// The direct table, one count per key from `first`; nil when sparse or when a count needs
    /// more than a byte (then `wide` holds it).
    private let bytes: UnsafeMutablePointer<UInt8>?
    private let wide: [UInt32]
    /// The distinct keys, ascending, and their counts: the sparse form.
    private let keys: [Int64]
    private let counts: [UInt32]
    /// Owns `bytes`.
    private let owner: Buffer?

    private final class Buffer {
        let pointer: UnsafeMutablePointer<UInt8>
        init(_ count: Int) {
            pointer = .allocate(capacity: max(count, 1))
            pointer.initialize(repeating: 0, count: max(count, 1))
        }
        deinit { pointer.deallocate() }
    }

    init(_ candidates: [Int64]) {
        guard var low = candidates.first else {
            (first, span, repeats, bytes, wide, keys, counts, owner) = (0, 0, false, nil, [], [], [], nil)
            return
        }
        var high = low
        for key in candidates {
            low = Swift.min(low, key)
            high = Swift.max(high, key)
        }
        first = low
        let (distance, overflow) = high.subtractingReportingOverflow(low)
        if !overflow,
            distance
                < Int64(candidates.count) &* Int64(KeyPositions.tableSpreadLimit) &+ Int64(KeyPositions.tableSlack)
        {
            span = Int(distance) + 1
            let buffer = Buffer(span)
            let table = buffer.pointer
            var saturated = false
            var repeated = false
            for key in candidates {
                let slot = table + Int(key &- low)
                if slot.pointee != 0 {
                    repeated = true
                    if slot.pointee == UInt8.max { saturated = true }
                }
                slot.pointee &+= 1
            }
            repeats = repeated
            if !saturated {
                (bytes, wide, keys, counts, owner) = (table, [], [], [], buffer)
                return
            }
            var wide = [UInt32](repeating: 0, count: span)
            for key in candidates { wide[Int(key &- low)] &+= 1 }
            (bytes, self.wide, keys, counts, owner) = (nil, wide, [], [], nil)
            return
        }
        span = 0
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
        repeats = write < sorted.count
        sorted.removeLast(sorted.count - write)
        (bytes, wide, keys, self.counts, owner) = (nil, [], sorted, counts, nil)
    }

    /// The number of times `key` appears among the candidates (0 when it does not).
    @inline(__always)
    func weight(of key: Int64) -> UInt32 {
        if span > 0 {
            let (offset, overflow) = key.subtractingReportingOverflow(first)
            guard !overflow, offset >= 0, offset < Int64(span) else { return 0 }
            if let bytes { return UInt32(bytes[Int(offset)]) }
            return wide[Int(offset)]
        }
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low &+ high) >> 1
            if keys[mid] < key { low = mid &+ 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? counts[low] : 0
    }

    /// The byte counts of the `count` consecutive keys from `key`, when the byte table covers all
    /// of them; nil otherwise (weigh each key with ``weight(of:)``).
    @inline(__always)
    func byteRun(from key: Int64, count: Int) -> UnsafePointer<UInt8>? {
        guard let bytes else { return nil }
        let (offset, overflow) = key.subtractingReportingOverflow(first)
        guard !overflow, offset >= 0, offset <= Int64(span &- count) else { return nil }
        return UnsafePointer(bytes + Int(offset))
    }
}
