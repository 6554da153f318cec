import StrataQuery

/// Queries whose candidates are given (the objects of a collection, in its order) rather than
/// every object of the table.
///
/// Two ways to find the matches. Few candidates in a large table are read one by one (a point
/// read each). Otherwise the query runs over the table as an unrestricted query does (an index
/// lookup when the filter allows one, else a scan with the fixed-width fast paths), marking its
/// matches, and each candidate is kept when it is marked: a byte per key of the candidates' range
/// (``MatchMarkSink``), or for sparse keys a binary search among the matching keys
/// (``KeyPositions``). A query of a 100,000-element list then costs a scan of the table plus
/// 100,000 byte reads.
extension PreparedQuery {
    /// Candidate counts at or below this are read one by one unless an index answers the query.
    static let pointReadLimit = 2_048

    /// The matching keys among `candidates`, in result order: the candidates' order (repeated
    /// keys repeat), then sorted and de-duplicated as the query says. Keys of deleted objects are
    /// skipped.
    func run(restrictedTo collection: CollectionCandidates) throws -> [Int64] {
        if case .constant(false) = predicate { return [] }
        let candidates = collection.keys
        var keys: [Int64]
        if try intersects(candidates.count) {
            if collection.weights.span > 0 {
                keys = try marked(collection.weights, candidates)
            } else {
                let matched = KeyPositions(try unordered.run())
                keys = candidates.filter { matched.position(of: $0) != nil }
            }
        } else {
            keys = []
            keys.reserveCapacity(candidates.count)
            for key in candidates {
                guard let row = try txn.row(table, key: key) else { continue }
                if try matches(row) { keys.append(key) }
            }
        }
        guard !sortKeys.isEmpty || !distinctKeys.isEmpty else { return keys }
        var sortValues: [[[UInt8]]] = Array(repeating: [], count: sortKeys.count)
        var distinctValues: [[UInt8]] = []
        var present: [Int64] = []
        present.reserveCapacity(keys.count)
        for key in keys {
            guard let row = try txn.row(table, key: key) else { continue }
            present.append(key)
            for (i, sortKey) in sortKeys.enumerated() {
                sortValues[i].append(IndexKey.encodeForOrdering(try sortKey.value(row)))
            }
            if !distinctKeys.isEmpty {
                var combined: [UInt8] = []
                for distinctKey in distinctKeys { IndexKey.encodeForOrdering(try distinctKey(row), into: &combined) }
                distinctValues.append(combined)
            }
        }
        return ordered(present, sortValues: sortValues, distinctValues: distinctValues)
    }

    /// Calls `body` with the row of each matching candidate, once per time it appears among the
    /// candidates: in key order when matched against the table's matches (one pass over them,
    /// each weighed by ``CollectionCandidates/weights``), else in the candidates' order.
    func forEachMatch(restrictedTo candidates: CollectionCandidates, _ body: (RowReader) throws -> Void) throws {
        if case .constant(false) = predicate { return }
        guard try intersects(candidates.keys.count) else {
            for key in candidates.keys {
                guard let row = try txn.row(table, key: key) else { continue }
                if try matches(row) { try body(row) }
            }
            return
        }
        let weights = candidates.weights
        try unordered.forEachMatch { row in
            let times = weights.weight(of: row.key)
            guard times > 0 else { return }
            for _ in 0..<times { try body(row) }
        }
    }

    /// The candidates that match, in their order, for candidates whose keys are dense enough for
    /// a direct table (`weights.span > 0`): the matches are marked in a byte per key of the
    /// candidates' range (by the fixed-width scan when the query is simple, else from the table's
    /// matching keys), then each candidate is kept when its byte is set.
    private func marked(_ weights: KeyWeights, _ candidates: [Int64]) throws -> [Int64] {
        let first = weights.first
        let span = weights.span
        let marks = UnsafeMutablePointer<UInt8>.allocate(capacity: span)
        marks.initialize(repeating: 0, count: span)
        defer { marks.deallocate() }
        let sink = UnsafeMutablePointer<MatchMarkSink>.allocate(capacity: 1)
        sink.initialize(to: MatchMarkSink(first: first, span: span, marks: marks))
        defer {
            sink.deinitialize(count: 1)
            sink.deallocate()
        }
        var scanned = false
        if case .test(let test) = predicate, probes == nil { scanned = try simpleScan(test, into: sink) }
        if !scanned {
            for key in try unordered.run() { sink.pointee.take(key) }
        }
        // Every candidate lies in the range. Written without a branch per candidate: each is
        // stored, and the count advances past it only when it matches.
        return [Int64](unsafeUninitializedCapacity: candidates.count) { out, count in
            var n = 0
            for key in candidates {
                out[n] = key
                n &+= Int(marks[Int(key &- first)])
            }
            count = n
        }
    }

    /// This query without sorting and distinct: its run gives the matches in key order.
    private var unordered: PreparedQuery {
        var query = self
        query.sortKeys = []
        query.distinctKeys = []
        return query
    }

    /// Whether the predicate holds for `row`.
    @inline(__always)
    private func matches(_ row: RowReader) throws -> Bool {
        switch predicate {
        case .constant(let value): return value
        case .test(let test): return try test(row)
        }
    }

    /// Whether `count` candidates are better matched against the table's matches than read one by
    /// one: when an index answers the query, or when they are more than ``pointReadLimit`` and at
    /// least an eighth of the table's objects.
    func intersects(_ count: Int) throws -> Bool {
        if probes != nil { return true }
        guard count > Self.pointReadLimit else { return false }
        return count &* 8 >= (try txn.count(table))
    }
}
