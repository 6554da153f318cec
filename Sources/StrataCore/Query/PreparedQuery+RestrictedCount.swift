import StrataQuery

extension PreparedQuery {
    /// The number of matches among `candidates` (repeated candidates counted each time), counted
    /// from the rows' bytes during a scan of the table when the query is one fixed-width
    /// comparison or AND, OR and NOT over such and the candidates are many; nil when the general
    /// path (``run(restrictedTo:)``) must answer.
    func count(restrictedTo candidates: [Int64]) throws -> Int? {
        if case .constant(false) = predicate { return 0 }
        guard case .test(let test) = predicate, probes == nil, try intersects(candidates.count) else { return nil }
        let sink = UnsafeMutablePointer<WeightedCountSink>.allocate(capacity: 1)
        sink.initialize(to: WeightedCountSink(weights: KeyWeights(candidates)))
        defer {
            sink.deinitialize(count: 1)
            sink.deallocate()
        }
        return try simpleScan(test, into: sink) ? sink.pointee.count : nil
    }
}
