/// What identifies a leaf's contents across snapshots: its page number and the version whose
/// commit wrote it (both in the page header, FORMAT.md "The page header"). Pages are never
/// changed once committed, and a reused page number is written by a newer version, so two
/// snapshots that reach leaves with equal identities see the same bytes there.
package struct LeafIdentity: Hashable, Sendable {
    package let page: UInt32
    package let version: UInt64
}
