/// Offsets of the meta record in pages 0 and 1 (after the page header).
enum MetaLayout {
    static let magic = 32  // u64
    static let formatVersion = 40  // u32
    static let pageSize = 44  // u32
    static let version = 48  // u64
    static let catalogRoot = 56  // u32
    static let freeListHead = 60  // u32
    static let pageCount = 64  // u32: pages in use (the high-water mark)
    static let flags = 68  // u32: bit 0 = clean close
    static let durableBase = 72  // u64: newest version known durable when this meta was written
    static let freeListPages = 80  // u32: pages in the free-list chain
    static let listHead = 84  // u32: first commit-list page, 0 if none
    static let listPagesOwn = 88  // u32: commit-list pages this commit wrote (the chain's first ones)
    static let inlineCount = 92  // u32: page numbers listed inline below
    static let inlineFreeCount = 96  // u32: free-list extents stored inline (then freeListHead is 0)
    static let reserved = 100  // u32: 0
    static let inlineList = 104  // u32 * inlineCount, then the inline free extents (8-aligned)
    static let flagClean: UInt32 = 1

    static func inlineCapacity(pageSize: Int) -> Int { (pageSize - inlineList) / 4 }

    /// Where the inline free extents start, after an inline commit list of `inlineCount` entries.
    static func inlineFreeOffset(inlineCount: Int) -> Int { (inlineList + 4 * inlineCount + 7) & ~7 }

    /// Whether a commit list of `pages` entries and `extents` free extents both fit in the meta page.
    static func fitsInline(pages: Int, extents: Int, pageSize: Int) -> Bool {
        inlineFreeOffset(inlineCount: pages) + FreeListLayout.entrySize * extents <= pageSize
    }
}
