import StrataStorage
import StrataQuery

/// What a scan does with each cluster it walks (`PreparedQuery.forEachScannedCluster`): a type
/// rather than a closure, so that the walk is specialised for it and calls it directly. As a
/// closure it cost an indirect call per cluster and kept the walk's checks of the cluster and the
/// visitor's reads of the same bytes from being optimised together. Kept small and free of
/// references: a visitor the compiler had to box cost a heap allocation per scan and, the first
/// time in a process, the runtime's instantiation of its generic type (a scan of every protocol
/// conformance record per requirement, ~0.35M instructions each).
protocol ScannedClusterVisitor {
    /// Takes the cluster `view` (its scanned columns checked); false when the cluster predates
    /// a column the visitor reads (the walk then hands it to its fallback, which tests each
    /// object). Must keep nothing of the cluster past the call (see `forEachScannedCluster`).
    mutating func visit(_ view: ClusterView) -> Bool
}
