/// What identifies a leaf's contents across snapshots: its page number and the version whose
/// commit wrote it (both in the page header, FORMAT.md "The page header"). Pages are never
/// changed once committed, and a reused page number is written by a newer version, so two
/// snapshots that reach leaves with equal identities see the same bytes there.
public struct LeafIdentity: Hashable, Sendable {
    public let page: UInt32
    public let version: UInt64
}

extension LeafView {
    /// This leaf's identity (its header's page number and version).
    public var identity: LeafIdentity {
        LeafIdentity(page: page.u32(8), version: page.u64(16))
    }
}
