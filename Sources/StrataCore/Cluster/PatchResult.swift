import StrataStorage

/// What patching a fixed-width value in place did.
enum PatchResult {
    case missing
    case unchanged(StoreValue)
    case patched(StoreValue)
    /// The value does not fit the cluster's encoding of the column: re-encode the cluster.
    case needsRewrite
}
