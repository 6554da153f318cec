/// A decoded meta record (pages 0 and 1). FORMAT.md, "Meta pages".
struct MetaRecord: Equatable {
    var version: UInt64
    var catalogRoot: UInt32
    var freeListHead: UInt32
    var pageCount: UInt32
    var flags: UInt32
    var durableBase: UInt64
    var freeListPages: UInt32
    var listHead: UInt32
    var listPagesOwn: UInt32
    var inlineList: [UInt32]
    /// The free list, when it is small enough to live in the meta page (FORMAT.md).
    var inlineFree: [FreeExtent] = []

    var isClean: Bool { flags & MetaLayout.flagClean != 0 }

    /// Writes the record into `page` (a full page buffer) for meta slot `slot`, with its checksum.
    func encode(into page: UnsafeMutableRawPointer, pageSize: Int, slot: Int, magic: UInt64 = fileMagic) {
        zeroBytes(page, pageSize)
        page.setU32(PageHeader.pageNumber, UInt32(slot))
        page.setU8(PageHeader.type, PageType.meta.rawValue)
        page.setU64(PageHeader.version, version)
        page.setU64(MetaLayout.magic, magic)
        page.setU32(MetaLayout.formatVersion, strataFormatVersion)
        page.setU32(MetaLayout.pageSize, UInt32(pageSize))
        page.setU64(MetaLayout.version, version)
        page.setU32(MetaLayout.catalogRoot, catalogRoot)
        page.setU32(MetaLayout.freeListHead, freeListHead)
        page.setU32(MetaLayout.pageCount, pageCount)
        page.setU32(MetaLayout.flags, flags)
        page.setU64(MetaLayout.durableBase, durableBase)
        page.setU32(MetaLayout.freeListPages, freeListPages)
        page.setU32(MetaLayout.listHead, listHead)
        page.setU32(MetaLayout.listPagesOwn, listPagesOwn)
        precondition(inlineList.count <= MetaLayout.inlineCapacity(pageSize: pageSize))
        page.setU32(MetaLayout.inlineCount, UInt32(inlineList.count))
        for (i, p) in inlineList.enumerated() { page.setU32(MetaLayout.inlineList + 4 * i, p) }
        precondition(
            inlineFree.isEmpty
                || (freeListHead == 0
                    && MetaLayout.fitsInline(pages: inlineList.count, extents: inlineFree.count, pageSize: pageSize))
        )
        page.setU32(MetaLayout.inlineFreeCount, UInt32(inlineFree.count))
        let base = MetaLayout.inlineFreeOffset(inlineCount: inlineList.count)
        for (i, e) in inlineFree.enumerated() {
            let o = base + FreeListLayout.entrySize * i
            page.setU64(o, e.version)
            page.setU32(o + 8, e.first)
            page.setU32(o + 12, e.count)
        }
        page.setU64(PageHeader.checksum, Checksum.ofPage(page, length: pageSize))
    }

    /// Fills `page` with a meta page that holds no record: the file-header fields stay (readers
    /// identify the file and its page size by page 0), the checksum is left 0 so `decode` rejects
    /// it. Used to withdraw a record that must never be opened at; zeroing page 0 instead would
    /// make the whole file unrecognisable.
    static func encodeErased(into page: UnsafeMutableRawPointer, pageSize: Int, magic: UInt64 = fileMagic) {
        zeroBytes(page, pageSize)
        page.setU64(MetaLayout.magic, magic)
        page.setU32(MetaLayout.formatVersion, strataFormatVersion)
        page.setU32(MetaLayout.pageSize, UInt32(pageSize))
    }

    /// Why a meta page was rejected.
    enum Problem: Error, Equatable {
        case badChecksum, wrongType, wrongSlot, badMagic, byteSwapped, formatVersion(UInt32), pageSize(UInt32),
            inconsistent(String)
    }

    /// Decodes and validates the meta record in `page` for `slot`.
    static func decode(_ page: UnsafeRawPointer, pageSize: Int, slot: Int) -> Result<MetaRecord, Problem> {
        let magic = page.u64(MetaLayout.magic)
        if magic == fileMagicByteSwapped { return .failure(.byteSwapped) }
        guard magic == fileMagic || magic == encryptedFileMagic else { return .failure(.badMagic) }
        let format = page.u32(MetaLayout.formatVersion)
        guard isReadableFormat(format) else { return .failure(.formatVersion(format)) }
        let ps = page.u32(MetaLayout.pageSize)
        guard Int(ps) == pageSize else { return .failure(.pageSize(ps)) }
        guard page.u64(PageHeader.checksum) == Checksum.ofPage(page, length: pageSize) else {
            return .failure(.badChecksum)
        }
        guard page.u8(PageHeader.type) == PageType.meta.rawValue else { return .failure(.wrongType) }
        guard page.u32(PageHeader.pageNumber) == UInt32(slot) else { return .failure(.wrongSlot) }
        let count = Int(page.u32(MetaLayout.inlineCount))
        guard count <= MetaLayout.inlineCapacity(pageSize: pageSize) else {
            return .failure(.inconsistent("inline list of \(count) entries"))
        }
        var list = [UInt32]()
        list.reserveCapacity(count)
        for i in 0..<count { list.append(page.u32(MetaLayout.inlineList + 4 * i)) }
        let freeCount = Int(page.u32(MetaLayout.inlineFreeCount))
        guard MetaLayout.fitsInline(pages: count, extents: freeCount, pageSize: pageSize) else {
            return .failure(.inconsistent("inline free list of \(freeCount) extents does not fit"))
        }
        var free: [FreeExtent] = []
        free.reserveCapacity(freeCount)
        let base = MetaLayout.inlineFreeOffset(inlineCount: count)
        for i in 0..<freeCount {
            let o = base + FreeListLayout.entrySize * i
            free.append(FreeExtent(version: page.u64(o), first: page.u32(o + 8), count: page.u32(o + 12)))
        }
        var m = MetaRecord(
            version: page.u64(MetaLayout.version),
            catalogRoot: page.u32(MetaLayout.catalogRoot),
            freeListHead: page.u32(MetaLayout.freeListHead),
            pageCount: page.u32(MetaLayout.pageCount),
            flags: page.u32(MetaLayout.flags),
            durableBase: page.u64(MetaLayout.durableBase),
            freeListPages: page.u32(MetaLayout.freeListPages),
            listHead: page.u32(MetaLayout.listHead),
            listPagesOwn: page.u32(MetaLayout.listPagesOwn),
            inlineList: list
        )
        m.inlineFree = free
        guard free.isEmpty || m.freeListHead == 0 else {
            return .failure(.inconsistent("both an inline free list and a free-list chain"))
        }
        for e in free where e.first < 2 || UInt64(e.first) + UInt64(e.count) > UInt64(m.pageCount) {
            return .failure(.inconsistent("inline free extent outside the file"))
        }
        guard m.pageCount >= 2 else { return .failure(.inconsistent("page count \(m.pageCount)")) }
        // Versions count commits from 1; one at or past 2^63 was not written by a commit, and the
        // next write (version + 1) would overflow.
        guard m.version < 1 << 63, m.durableBase <= m.version else {
            return .failure(.inconsistent("version \(m.version) (durable base \(m.durableBase))"))
        }
        guard m.catalogRoot < m.pageCount, m.freeListHead < m.pageCount, m.listHead < m.pageCount else {
            return .failure(.inconsistent("root pages beyond the page count"))
        }
        guard m.durableBase <= m.version else { return .failure(.inconsistent("durable base after version")) }
        return .success(m)
    }
}
