extension StoreQuerySource {
    /// The candidates this source holds in `txn`; nil for `.table`. Kept by a read transaction of
    /// one thread and reused by later queries of the same source in it.
    /// - Throws: as ``keys(in:)``.
    func candidates(in txn: StoreTransaction) throws -> CollectionCandidates? {
        if case .table = self { return nil }
        let keeps = txn.write == nil && !txn.isShared
        if keeps, let kept = txn.collectionCandidates[self] { return kept }
        guard let keys = try keys(in: txn) else { return nil }
        let candidates = CollectionCandidates(keys)
        if keeps {
            if txn.collectionCandidates.count >= CollectionCandidates.limit { txn.collectionCandidates.removeAll() }
            txn.collectionCandidates[self] = candidates
        }
        return candidates
    }
}
