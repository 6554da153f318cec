// Area pages and area references (FORMAT.md, "Area pages"): byte ranges of a page, stored apart
// from the leaf cell that refers to them, so that a change of one part of a large value (one
// column of a cluster) copies that part and not the whole leaf.

/// The header fields of an area page (type 7) and how its areas are placed.
enum AreaLayout {
    /// u16: the end of the page's last area (32 for a page without areas).
    static let used = 24
    /// u16: how many areas the commit that wrote the page placed in it (live or not).
    static let areaCount = 26
    /// Where the first area starts.
    static let first = PageHeader.size
    /// Every area starts at a multiple of this offset.
    static let alignment = 8

    /// The longest area a page of `pageSize` bytes holds.
    static func largest(pageSize: Int) -> Int { min(pageSize - first, Int(UInt16.max)) }

    /// `offset` rounded up to the alignment.
    @inline(__always)
    static func aligned(_ offset: Int) -> Int { (offset + alignment - 1) & ~(alignment - 1) }
}
