/// Catalog values: a tree's root page u32, flags u32, entry count u64.
enum TreeInfoLayout {
    static let size = 16
    static let flags = 4
    /// Flag bit 0: every value of the tree begins with area references (`AreaPrefix`).
    static let holdsAreas: UInt32 = 1
}
