extension LeafView {
    /// This leaf's identity (its header's page number and version).
    package var identity: LeafIdentity {
        LeafIdentity(page: page.u32(8), version: page.u64(16))
    }
}
