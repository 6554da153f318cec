/// Catalog values: a tree's root page u32, reserved u32, entry count u64.
enum TreeInfoLayout {
    static let size = 16
}
