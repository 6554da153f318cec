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
/// - 3 (Strata 0.4): area pages (page type 7), the catalog's tree flags (bit 0: the tree's values
///   begin with area references) and the area-counts tree (FORMAT.md, "Area pages"). Files of
///   format 2 are files of format 3 without areas: a writable open upgrades them the same way
///   (both meta records), with no other change.
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
public let strataFormatVersion: UInt32 = 3

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
/// the published state has two copies (FORMAT.md, "The lock file"); 4 since data format 3.
let lockFileFormatVersion: UInt32 = 4

/// Smallest and largest supported page sizes (powers of two). 32 KiB is the largest because cell
/// offsets inside a page are 16-bit.
public let minimumPageSize = 4096
public let maximumPageSize = 32768
