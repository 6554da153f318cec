import StrataQuery

extension PreparedQuery {
    /// The number of matches among `candidates` (repeated candidates counted each time), counted
    /// from the rows' bytes during a scan of the table when the query is one fixed-width
    /// comparison or AND, OR and NOT over such and the candidates are many; nil when the general
    /// path (``run(restrictedTo:)``) must answer.
    func count(restrictedTo candidates: CollectionCandidates) throws -> Int? {
        if case .constant(false) = predicate { return 0 }
        guard case .test(let test) = predicate, probes == nil, try intersects(candidates.keys.count) else { return nil }
        let sink = UnsafeMutablePointer<WeightedCountSink>.allocate(capacity: 1)
        sink.initialize(to: WeightedCountSink(weights: candidates.weights))
        defer {
            sink.deinitialize(count: 1)
            sink.deallocate()
        }
        return try simpleScan(test, into: sink) ? sink.pointee.count : nil
    }

    /// The sum of column `column` over the matches among `candidates` (a candidate appearing
    /// k times is added k times), read from the rows' bytes during a scan of the table when the
    /// query is simple (as for ``count(restrictedTo:)``) and the candidates are many; nil when the
    /// general path must answer. Adds in key order, as the general path does for so many
    /// candidates, so both give the same bits.
    func sum(
        column: Int, restrictedTo candidates: CollectionCandidates
    ) throws -> (ints: Int64, doubles: Double, sawValue: Bool)? {
        guard probes == nil, isSimpleColumn(table, column), try intersects(candidates.keys.count) else { return nil }
        let matchBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: SimpleSumSink.matchByteCapacity)
        defer { matchBytes.deallocate() }
        let sink = UnsafeMutablePointer<WeightedSumSink>.allocate(capacity: 1)
        sink.initialize(
            to: WeightedSumSink(
                weights: candidates.weights,
                inner: SimpleSumSink(table: table, column: column, matchBytes: matchBytes)))
        defer {
            sink.deinitialize(count: 1)
            sink.deallocate()
        }
        switch predicate {
        case .constant(false):
            return (0, 0, false)
        case .constant(true):
            try forEachScannedCluster(columns: [column]) { view in
                sink.pointee.begin(view)
                for i in 0..<view.count { sink.pointee.take(i, view) }
                return true
            }
        case .test(let test):
            guard try simpleScan(test, into: sink) else { return nil }
        }
        return (sink.pointee.inner.ints, sink.pointee.inner.doubles, sink.pointee.inner.sawValue)
    }
}
