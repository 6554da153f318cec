import StrataStorage
import StrataQuery

/// A closure as a `ScannedClusterVisitor`, for the scans whose per-cluster work dominates their
/// walk (a sum over every object, the compound scan).
struct ClosureClusterVisitor: ScannedClusterVisitor {
    let body: (ClusterView) -> Bool
    func visit(_ view: ClusterView) -> Bool { body(view) }
}
