/// Offsets of the 32-byte header every page starts with.
enum PageHeader {
    static let checksum = 0  // u64: checksum of bytes [8, length) of the page (or overflow run)
    static let pageNumber = 8  // u32: the page's own number (catches misplaced writes)
    static let type = 12  // u8: PageType
    static let flags = 13  // u8: reserved, 0
    static let reserved = 14  // u16: reserved, 0
    static let version = 16  // u64: the version whose commit wrote the page
    static let typeSpecific = 24  // 8 bytes, per type (below)
    static let size = 32

    // B-tree nodes (branch, leaf)
    static let cellCount = 24  // u16
    static let cellStart = 26  // u16: lowest byte used by cells (cells grow down from the end)
    static let garbage = 28  // u16: bytes of dead cells below cellStart..end
    // Overflow run
    static let runPages = 24  // u32: pages in the run, including this one
    static let valueLength = 28  // u32: bytes of value data after the header
    // Free-list and commit-list pages
    static let entryCount = 24  // u32
    static let nextPage = 28  // u32: next page of the chain, 0 at the end
}
