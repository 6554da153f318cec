// On-disk constants of the Strata data file. FORMAT.md describes every structure field by field;
// `FormatLayoutTests` checks that the offsets below match it.

/// The data file's format version: what this build writes.
///
/// History (FORMAT.md, "Version history"):
/// - 1 (Strata 0.1, 0.2): first format. Pages of 4-32 KiB with a 32-byte checksummed header; two
///   meta pages; copy-on-write B+trees; overflow runs; free-list and commit-list page chains. The
///   object store kept one row per object (0.1), then columnar clusters (0.2) without a new
///   number, so a 0.1 build opening a 0.2 file saw its tables as empty.
/// - 2 (Strata 0.3): the object store's columnar clusters, under their own number; the page
///   format is that of 1. A writable open upgrades a format-1 file (both meta records), so an
///   older build refuses it instead of misreading it.
///
/// When you bump this (for every change an older reader would misread, in the pages or in the
/// object store's trees):
/// - add a row to FORMAT.md's version history, and say whether ``oldestReadableFormatVersion``
///   moves (can this build still read the old format, and does a writable open upgrade it?);
/// - commit a fixture of the previous format, made by the previous release's code, under
///   `Tests/Fixtures/Formats`, and extend `FormatUpgradeTests` to open and check it;
/// - review `FormatLayoutTests` (sizes and offsets), the upgrade in `Database.upgradeFormatIfNeeded`,
///   and the refusal message of ``StorageError/unsupportedFormatVersion(path:found:supported:)``;
/// - bump `lockFileFormatVersion` too, so builds of different formats never share a lock file.
public let strataFormatVersion: UInt32 = 2

/// The oldest format version this build reads (and upgrades when it opens a file writable).
public let oldestReadableFormatVersion: UInt32 = 1

/// Whether this build reads files of `format`.
@inline(__always)
func isReadableFormat(_ format: UInt32) -> Bool {
    format >= oldestReadableFormatVersion && format <= strataFormatVersion
}

/// Little-endian on disk: the bytes are "STRATADB" read back to front, so a file written on a
/// big-endian machine (or read by one) shows up as ``magicByteSwapped``.
let fileMagic: UInt64 = 0x5354_5241_5441_4442  // "STRATADB" as a big-endian number
let fileMagicByteSwapped: UInt64 = fileMagic.byteSwapped

/// The lock file's magic ("STRATALK").
let lockFileMagic: UInt64 = 0x5354_5241_5441_4C4B
/// The lock file's layout version: builds of different lock-file layouts (or data formats) refuse
/// each other's lock file, so they never have one file open at once. 2 since data format 2; 3 since
/// the published state has two copies (FORMAT.md, "The lock file").
let lockFileFormatVersion: UInt32 = 3

/// Smallest and largest supported page sizes (powers of two). 32 KiB is the largest because cell
/// offsets inside a page are 16-bit.
public let minimumPageSize = 4096
public let maximumPageSize = 32768

/// A page number: the page's byte offset is `rawValue * pageSize`.
///
/// 32 bits address 16 TiB with 4 KiB pages and 128 TiB with 32 KiB pages.
public struct PageNumber: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ raw: UInt32) { self.rawValue = raw }
    public static func < (a: PageNumber, b: PageNumber) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "page \(rawValue)" }
    /// Page 0 is a meta page, so it never stands for a tree node: 0 means "no page".
    static let none = PageNumber(0)
}

/// A committed version of the database. Each commit creates the next version.
public struct VersionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ raw: UInt64) { self.rawValue = raw }
    public static func < (a: VersionID, b: VersionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "version \(rawValue)" }
}

/// The kind of a page, stored in byte 12 of its header.
enum PageType: UInt8 {
    case meta = 1
    case branch = 2
    case leaf = 3
    case overflow = 4
    case freeList = 5
    case commitList = 6
}

/// Offsets of the 32-byte header every page starts with.
enum PageHeader {
    static let checksum = 0        // u64: checksum of bytes [8, length) of the page (or overflow run)
    static let pageNumber = 8      // u32: the page's own number (catches misplaced writes)
    static let type = 12           // u8: PageType
    static let flags = 13          // u8: reserved, 0
    static let reserved = 14       // u16: reserved, 0
    static let version = 16        // u64: the version whose commit wrote the page
    static let typeSpecific = 24   // 8 bytes, per type (below)
    static let size = 32

    // B-tree nodes (branch, leaf)
    static let cellCount = 24      // u16
    static let cellStart = 26      // u16: lowest byte used by cells (cells grow down from the end)
    static let garbage = 28        // u16: bytes of dead cells below cellStart..end
    // Overflow run
    static let runPages = 24       // u32: pages in the run, including this one
    static let valueLength = 28    // u32: bytes of value data after the header
    // Free-list and commit-list pages
    static let entryCount = 24     // u32
    static let nextPage = 28       // u32: next page of the chain, 0 at the end
}

/// Offsets of the meta record in pages 0 and 1 (after the page header).
enum MetaLayout {
    static let magic = 32              // u64
    static let formatVersion = 40      // u32
    static let pageSize = 44           // u32
    static let version = 48            // u64
    static let catalogRoot = 56        // u32
    static let freeListHead = 60       // u32
    static let pageCount = 64          // u32: pages in use (the high-water mark)
    static let flags = 68              // u32: bit 0 = clean close
    static let durableBase = 72        // u64: newest version known durable when this meta was written
    static let freeListPages = 80      // u32: pages in the free-list chain
    static let listHead = 84           // u32: first commit-list page, 0 if none
    static let listPagesOwn = 88       // u32: commit-list pages this commit wrote (the chain's first ones)
    static let inlineCount = 92        // u32: page numbers listed inline below
    static let inlineFreeCount = 96    // u32: free-list extents stored inline (then freeListHead is 0)
    static let reserved = 100          // u32: 0
    static let inlineList = 104        // u32 * inlineCount, then the inline free extents (8-aligned)
    static let flagClean: UInt32 = 1

    static func inlineCapacity(pageSize: Int) -> Int { (pageSize - inlineList) / 4 }

    /// Where the inline free extents start, after an inline commit list of `inlineCount` entries.
    static func inlineFreeOffset(inlineCount: Int) -> Int { (inlineList + 4 * inlineCount + 7) & ~7 }

    /// Whether a commit list of `pages` entries and `extents` free extents both fit in the meta page.
    static func fitsInline(pages: Int, extents: Int, pageSize: Int) -> Bool {
        inlineFreeOffset(inlineCount: pages) + FreeListLayout.entrySize * extents <= pageSize
    }
}

/// Free-list entries: (freed-by version u64, first page u32, run length u32).
enum FreeListLayout {
    static let entrySize = 16
    static func capacity(pageSize: Int) -> Int { (pageSize - PageHeader.size) / entrySize }
}

/// Commit-list entries: page numbers (u32).
enum CommitListLayout {
    static func capacity(pageSize: Int) -> Int { (pageSize - PageHeader.size) / 4 }
}

/// B-tree cells.
///
/// Leaf cell: key length u16, value word u32 (bit 31 = value is in an overflow run, bits 0-30 =
/// value length), key bytes, then the value bytes or the overflow run's first page (u32).
/// Branch cell: child page u32, key length u16, key bytes. Cell 0 of a branch has an empty key and
/// stands for "everything below the next key".
enum CellLayout {
    static let leafHeader = 6
    static let branchHeader = 6
    static let overflowFlag: UInt32 = 0x8000_0000
}

/// Catalog values: a tree's root page u32, reserved u32, entry count u64.
enum TreeInfoLayout {
    static let size = 16
}
