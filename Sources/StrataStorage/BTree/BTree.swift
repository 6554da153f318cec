// Read side of the copy-on-write B+tree, shared by read and write transactions.
//
// Node layout (FORMAT.md, "B-tree nodes"): the 32-byte page header, then a slot array of u16 cell
// offsets in key order, free space, and cells packed at the end of the page. Every access checks
// that offsets and lengths stay inside the page, so a corrupt page is reported as an error
// instead of reading outside it.
//
// What a read checks, and when (FORMAT.md, "What reads check"):
// - every page it visits: the page-number field names the page (a misplaced page), the type is
//   the expected one, the version is not newer than the snapshot's, the node header is sane;
// - every node a descent reaches, the first time since it was written (`CheckedPages`): its
//   checksum, its cells' layout and key order;
// - a lookup that does not find its key (`get`), and every `floor`: the leaf's keys lie within the
//   separators of the branches that led to it, so a leaf from elsewhere cannot answer;
// - a scan (`forEachLeaf`, `forEach`, cursors): each leaf's cells (once), its keys above the
//   previous leaf's and below the next separator, all leaves at one depth; not its checksum.

/// Compares two keys in `memcmp` order (shorter first on a common prefix).
@inline(__always)
func compareKeys(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    guard let x = a.baseAddress, let y = b.baseAddress else {
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
    return compareBytes(x, a.count, y, b.count)
}
