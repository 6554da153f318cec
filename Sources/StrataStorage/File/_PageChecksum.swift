/// Not API: recomputes page checksums of a Strata file image, for the fuzzer (`strata-fuzz`),
/// which mutates a valid file and reseals the pages it touched so that decoding goes past the
/// checksum check into the page's structure.
///
/// ## Concurrency
/// Stateless; may be called from any thread.
public enum _PageChecksum {
    /// Writes the checksum of the page (or overflow run) at `page` into its header. The length
    /// covered is one page, or the run's length (from its header) for an overflow page, cut at
    /// `available` bytes (the rest of the image); a length below 16 bytes is left alone.
    /// - Parameters:
    ///   - page: the page's first byte, 8-byte aligned.
    ///   - pageSize: the file's page size.
    ///   - available: bytes from `page` to the end of the image.
    public static func seal(_ page: UnsafeMutableRawPointer, pageSize: Int, available: Int) {
        var length = pageSize
        if available >= PageHeader.size, page.u8(PageHeader.type) == PageType.overflow.rawValue {
            let run = Int(page.u32(PageHeader.runPages))
            if run > 1 { length = run <= available / pageSize ? run * pageSize : available / pageSize * pageSize }
        }
        length = min(length, available) / 8 * 8
        guard length >= 16 else { return }
        page.setU64(PageHeader.checksum, Checksum.ofPage(page, length: length))
    }

    /// The pages an overflow run starting at `page` claims (its header's count; at least 1), or 1
    /// for any other page.
    public static func pagesClaimed(by page: UnsafeRawPointer) -> Int {
        guard page.u8(PageHeader.type) == PageType.overflow.rawValue else { return 1 }
        return max(1, Int(page.u32(PageHeader.runPages)))
    }

    /// Offsets and sizes of the fields a file-format fuzzer most wants to aim at: the meta
    /// record's fields and the page header's.
    public static let interestingOffsets: [(offset: Int, size: Int)] = [
        (PageHeader.pageNumber, 4), (PageHeader.type, 1), (PageHeader.version, 8), (PageHeader.typeSpecific, 2),
        (PageHeader.typeSpecific + 2, 2), (PageHeader.typeSpecific + 4, 4),
        (MetaLayout.magic, 8), (MetaLayout.formatVersion, 4), (MetaLayout.pageSize, 4), (MetaLayout.version, 8),
        (MetaLayout.catalogRoot, 4), (MetaLayout.freeListHead, 4), (MetaLayout.pageCount, 4), (MetaLayout.flags, 4),
        (MetaLayout.durableBase, 8), (MetaLayout.freeListPages, 4), (MetaLayout.listHead, 4),
        (MetaLayout.listPagesOwn, 4),
        (MetaLayout.inlineCount, 4), (MetaLayout.inlineFreeCount, 4), (MetaLayout.inlineList, 4),
    ]

    /// Clears the clean-close flag of the meta record in `page` (then reseal it): the next first
    /// opener verifies the newest commit's pages, as after a crash.
    public static func clearCleanFlag(_ page: UnsafeMutableRawPointer) {
        page.setU32(MetaLayout.flags, page.u32(MetaLayout.flags) & ~MetaLayout.flagClean)
    }
}
