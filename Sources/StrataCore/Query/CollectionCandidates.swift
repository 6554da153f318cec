/// The objects of one collection (a list, set or map of links, or the objects linking to one
/// object) as the candidates of queries restricted to it: their keys in the collection's order,
/// and how many times each key appears (``KeyWeights``), built on first use.
///
/// A read transaction shows one snapshot, so a collection's candidates cannot change while it
/// is open: the transaction keeps them (``StoreQuerySource/candidates(in:)``) and every query of
/// the same collection in it reuses them instead of decoding the owner's row and weighing the
/// keys again. Write transactions (whose collections change) and transactions shared by several
/// threads read them afresh each time.
///
/// ## Concurrency
/// Confined with its transaction.
final class CollectionCandidates {
    /// The keys, in the collection's order (repeated keys repeat).
    let keys: [Int64]
    private var cachedWeights: KeyWeights?

    init(_ keys: [Int64]) {
        self.keys = keys
    }

    /// How many times each key appears among ``keys``.
    var weights: KeyWeights {
        if let cachedWeights { return cachedWeights }
        let weights = KeyWeights(keys)
        cachedWeights = weights
        return weights
    }

    /// The most collections a transaction keeps candidates for; one more empties the store of
    /// kept candidates first (a transaction rarely queries more collections than this).
    static let limit = 8
}
