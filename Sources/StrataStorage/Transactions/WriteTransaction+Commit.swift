import StrataPOSIX

// The commit protocol, one method per step, numbered as in FORMAT.md ("Commit, step by step").
// Steps 0 and 5 live in WriteTransaction+Repack.swift and WriteTransaction+LeafOrder.swift,
// step 11 in WriteTransaction+GiveBack.swift.

extension WriteTransaction {
    /// Where a commit puts its free list and its page list, decided in step 2 and used by the
    /// steps after it.
    struct CommitLists {
        /// Whether the version this transaction started from was durable.
        var previousIsDurable: Bool
        /// The previous commit's commit-list chain this one continues (0 if it was durable).
        var chainTo: UInt32
        /// Everything this commit freed, sorted, as the free list in the file records it.
        var freedAll: [UInt32]
        /// The free list's extents.
        var extents: [FreeExtent]
        /// The previous (deferred) commit's inline page list, carried into this record.
        var carried: [UInt32]
        /// Whether the free list goes into the meta page.
        var freeInline: Bool
        /// Whether the page list goes into the meta page.
        var pagesInline: Bool
        /// The commit-list pages and free-list pages this commit writes.
        var commitListPages: [UInt32]
        var freeListPages: [UInt32]
        /// The page list as the meta record holds it inline (empty when it is in pages), and the
        /// head of the commit-list chain.
        var inline: [UInt32] = []
        var listHead: UInt32 = 0
    }

    /// The commit steps; the caller ends the transaction.
    func commitChanges(durability: Durability) throws -> VersionID {
        try recordAreaCounts()  // 0 (FORMAT.md, "Area pages")
        try repackDirtyLeaves()  // 0
        try recordChangedTreesInCatalog()  // 1
        var lists = try planLists()  // 2
        writeFreeList(&lists)  // 3
        writeCommitList(&lists)  // 4
        orderDirtyLeaves()  // 5
        checksumWrittenPages()  // 6
        commitWritesStarted = true
        if let sealed = mappings.last!.sealed { try writeSealedPages(sealed) } else { try writeShadowPages() }  // 7
        let (meta, slot) = try writeMetaRecord(lists)  // 8
        let durable = try syncIfDurable(durability, slot: slot)  // 9
        publish(meta, slot: slot, durable: durable, lists: lists)  // 10
        if durability == .full && lists.previousIsDurable {  // 11
            if shortensFileToPageCount { shortenToPageCount() } else { giveBackSpace() }
        }
        db.writerCache = WriterState(
            version: v, free: free, freeListChain: lists.freeListPages, ownListPages: lists.commitListPages,
            meta: meta, fileBytes: fileCapacity)
        free = FreeSpace()
        return version
    }

    /// Step 1: records each changed tree's root and count in the catalog (copy-on-write like any
    /// tree), then drops free pages at the end of the file from the in-use range.
    private func recordChangedTreesInCatalog() throws {
        for i in trees.indices where trees[i].dirty {
            let t = trees[i]
            var key = Array(t.name.utf8)
            if t.dropped {
                _ = try key.withUnsafeMutableBytes { try delete(UnsafeRawBufferPointer($0), &catalog) }
            } else {
                let value = Catalog.encode(Tree(name: t.name, root: t.root, count: t.count, holdsAreas: t.holdsAreas))
                _ = try key.withUnsafeMutableBytes { k in
                    try value.withUnsafeBytes { try put(UnsafeRawBufferPointer(k), $0, &catalog) }
                }
            }
        }
        trimTail()
    }

    /// Step 2: decides where the free list and the page list go, cheapest first: (1) both in the
    /// meta page (no extra pages: the common case for small commits, durable or deferred); (2) the
    /// free list in the meta page and the page list in commit-list pages; (3) a free-list chain,
    /// with the page list inline if it fits, else in commit-list pages. Allocates those pages;
    /// allocating takes the lowest pool pages, which only shrinks the free list, so the sizes
    /// computed first are upper bounds.
    private func planLists() throws -> CommitLists {
        let previousIsDurable = base.durableVersion == base.version
        let flCap = FreeListLayout.capacity(pageSize: pageSize)
        let clCap = CommitListLayout.capacity(pageSize: pageSize)
        freedNow.sort()
        freedYoung.sort()
        let freedAll = freedYoung.isEmpty ? freedNow : (freedNow + freedYoung).sorted()
        let extents = free.extents(extra: (v, freedAll))
        // The page list covers every page written since the durable version: when the previous
        // commit was deferred, its inline list is carried into this record (its meta slot is the
        // one this commit overwrites), and its commit-list chain, if any, is chained to.
        let carried: [UInt32] = previousIsDurable ? [] : baseMeta.inlineList
        let allInline = MetaLayout.fitsInline(
            pages: carried.count + dirty.count, extents: extents.count, pageSize: pageSize)
        let freeInline = allInline || MetaLayout.fitsInline(pages: 0, extents: extents.count, pageSize: pageSize)
        let flNeeded = freeInline ? 0 : (extents.count + flCap - 1) / flCap
        let pagesInline =
            allInline
            || (!freeInline && carried.count + dirty.count + flNeeded <= MetaLayout.inlineCapacity(pageSize: pageSize))
        var clNeeded = 0
        if !pagesInline {
            while true {
                let want = (carried.count + dirty.count + flNeeded + clNeeded + clCap - 1) / clCap
                if want <= clNeeded { break }
                clNeeded = want
            }
        }
        let poolBefore = free.availablePages
        var clPages: [UInt32] = []
        for _ in 0..<clNeeded { clPages.append(try allocPage(.commitList, young: false).0) }
        var flPages: [UInt32] = []
        for _ in 0..<flNeeded { flPages.append(try allocPage(.freeList, young: false).0) }
        // Allocations from the pool changed the free list (pages from the end of the file did not).
        let finalExtents = free.availablePages != poolBefore ? free.extents(extra: (v, freedAll)) : extents
        precondition(
            freeInline
                ? MetaLayout.fitsInline(
                    pages: pagesInline ? carried.count + dirty.count : 0, extents: finalExtents.count,
                    pageSize: pageSize)
                : finalExtents.count <= flPages.count * flCap, "free list outgrew its pages")
        return CommitLists(
            previousIsDurable: previousIsDurable, chainTo: previousIsDurable ? 0 : baseMeta.listHead,
            freedAll: freedAll,
            extents: finalExtents, carried: carried, freeInline: freeInline, pagesInline: pagesInline,
            commitListPages: clPages, freeListPages: flPages)
    }

    /// Step 3: writes the free list (reusable pages, pending pages by version, and what this
    /// commit freed, tagged with its version) into the free-list pages step 2 allocated; an
    /// inline free list goes into the meta record in step 8.
    private func writeFreeList(_ lists: inout CommitLists) {
        let flCap = FreeListLayout.capacity(pageSize: pageSize)
        let pages = lists.freeListPages
        for (k, n) in pages.enumerated() {
            let p = access.pointer(n)
            let lo = k * flCap
            let hi = min(lo + flCap, lists.extents.count)
            let count = max(0, hi - lo)
            p.setU32(PageHeader.entryCount, UInt32(count))
            p.setU32(PageHeader.nextPage, k + 1 < pages.count ? pages[k + 1] : 0)
            for j in 0..<count {
                let e = PageHeader.size + FreeListLayout.entrySize * j
                let x = lists.extents[lo + j]
                p.setU64(e, x.version)
                p.setU32(e + 8, x.first)
                p.setU32(e + 12, x.count)
            }
        }
    }

    /// Step 4: the commit list, every page this commit wrote (plus the pages carried from a
    /// deferred predecessor), so that opening after a crash can check them all and fall back to
    /// the previous version if one is torn. Pages rewritten within a group of deferred commits
    /// (young pages) are listed once.
    private func writeCommitList(_ lists: inout CommitLists) {
        let clCap = CommitListLayout.capacity(pageSize: pageSize)
        var written = dirty.sorted()
        if !lists.carried.isEmpty {
            var all = lists.carried
            all.append(contentsOf: written)
            all.sort()
            written.removeAll(keepingCapacity: true)
            for n in all where n != written.last { written.append(n) }
        }
        lists.listHead = lists.chainTo
        if lists.pagesInline {
            lists.inline = written
        } else if !lists.commitListPages.isEmpty {
            let pages = lists.commitListPages
            lists.listHead = pages[0]
            for (k, n) in pages.enumerated() {
                let p = access.pointer(n)
                let lo = k * clCap
                let hi = min(lo + clCap, written.count)
                let count = max(0, hi - lo)
                p.setU32(PageHeader.entryCount, UInt32(count))
                p.setU32(PageHeader.nextPage, k + 1 < pages.count ? pages[k + 1] : lists.chainTo)
                for j in 0..<count { p.setU32(PageHeader.size + 4 * j, written[lo + j]) }
            }
        }
    }

    /// Step 6: the checksums, last, once every page's contents are final: only the pages this
    /// commit wrote (carried entries belong to earlier, committed versions and must not be
    /// touched). A leaf whose cells are out of key order (inserts in random key order place each
    /// new cell below the others) is rewritten in key order first, so a scan reads each leaf
    /// front to back, one address after the other, as the processor's prefetcher expects.
    private func checksumWrittenPages() {
        for n in dirty {
            let p = access.pointer(n)
            let type = p.u8(PageHeader.type)
            if type == PageType.leaf.rawValue, !Node.cellsInKeyOrder(p) { compact(p, leaf: true) }
            let length = type == PageType.overflow.rawValue ? Int(p.u32(PageHeader.runPages)) * pageSize : pageSize
            p.setU64(PageHeader.checksum, Checksum.ofPage(p, length: length))
        }
    }

    // Step 7 (`writeShadowPages`, WriteTransaction.swift): pages held in private memory go to the
    // file, one `pwritev` per run of consecutive pages (the others were written through the map),
    // before the meta record, like every data page. A failure leaves only free pages changed:
    // nothing refers to them, so the previous version stays current and the handle usable.

    /// Step 8: the meta record goes to the slot that does not hold the durable version, so a
    /// crash at any point leaves that version intact.
    /// - Returns: the record and its slot.
    private func writeMetaRecord(_ lists: CommitLists) throws -> (MetaRecord, Int) {
        let meta = MetaRecord(
            version: v, catalogRoot: catalog.root, freeListHead: lists.freeListPages.first ?? 0, pageCount: pageCount,
            flags: 0, durableBase: base.durableVersion, freeListPages: UInt32(lists.freeListPages.count),
            listHead: lists.listHead, listPagesOwn: UInt32(lists.commitListPages.count), inlineList: lists.inline,
            inlineFree: lists.freeInline ? lists.extents : [])
        let slot = 1 - Int(base.durableSlot)
        meta.encode(into: scratch, pageSize: pageSize, slot: slot, magic: db.metaMagic)
        let metaBytes = metaWriteLength(slot: slot)
        do {
            try StorageError.wrap {
                try System.pwrite(db.fd, from: scratch, count: metaBytes, offset: Int64(slot * pageSize))
            }
        } catch {
            // The slot may now hold a torn record. If it held the newest (deferred, not yet
            // durable) version, that version can no longer be made durable: refuse further writes.
            if !lists.previousIsDurable { db.poisonedBy = "\(error)" }
            throw error
        }
        return (meta, slot)
    }

    /// Step 9: for a durable commit, one `fdatasync` makes the data pages and the meta durable
    /// together. On failure the record in the slot is erased, so the commit cannot resurface on
    /// reopen, and the handle refuses further writes.
    /// - Returns: the durable version and its slot after this step.
    private func syncIfDurable(_ durability: Durability, slot: Int) throws -> (version: UInt64, slot: UInt32) {
        guard durability == .full else { return (base.durableVersion, base.durableSlot) }
        do {
            try StorageError.wrap { try System.fdatasync(db.fd) }
        } catch {
            MetaRecord.encodeErased(into: scratch, pageSize: pageSize, magic: db.metaMagic)
            try? System.pwrite(db.fd, from: scratch, count: pageSize, offset: Int64(slot * pageSize))
            try? System.fdatasync(db.fd)
            db.poisonedBy = "\(error)"
            throw error
        }
        return (v, UInt32(slot))
    }

    /// Step 10: publishes the version to readers in every process, and keeps the free list for
    /// the next commit.
    private func publish(_ meta: MetaRecord, slot: Int, durable: (version: UInt64, slot: UInt32), lists: CommitLists) {
        db.lockFile.publish(
            PublishedState(
                version: v, catalogRoot: catalog.root, pageCount: pageCount, latestSlot: UInt32(slot),
                durableVersion: durable.version, durableSlot: durable.slot))
        committed = true
        // The pages this commit wrote are known good: this process's readers need not checksum them.
        let checked = mappings.last!.checked
        for n in dirty { checked.insert(n, version: v, inFull: true) }
        // The cache still shares the free list's buffers with `free`: drop it first, so that the
        // append below changes them in place instead of copying every pending group (a copy per
        // commit made commits in a deferred group slower as the group grew), and hand the
        // buffers over rather than keeping a second reference in this transaction.
        db.writerCache = nil
        free.addPending(v, sorted: freedNow)
        free.addYoungPending(v, sorted: freedYoung)
    }
}
