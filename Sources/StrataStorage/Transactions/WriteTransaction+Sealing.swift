import StrataPOSIX

// The write side of an encrypted file (FORMAT.md, "Encrypted files"): the transaction writes its
// pages in plaintext (private buffers, or the mapping's mirror), and commit step 7 seals each one
// and writes the slots, before the meta record, like every data page of a plain file.

extension WriteTransaction {
    /// The pages this transaction wrote, each page of an overflow run included, in order.
    func writtenPages() -> [UInt32] {
        var pages: [UInt32] = []
        pages.reserveCapacity(dirty.count)
        for n in dirty {
            let p = access.pointer(n)
            let run = p.u8(PageHeader.type) == PageType.overflow.rawValue ? max(1, Int(p.u32(PageHeader.runPages))) : 1
            for k in 0..<run { pages.append(n + UInt32(k)) }
        }
        pages.sort()
        return pages
    }

    /// Commit step 7 for an encrypted file: seals every page this transaction wrote with its
    /// version and writes the slots, one `pwrite` per run of consecutive pages (at most 64), and
    /// leaves the plaintext in the mirror, where this process's readers will find it. A failure
    /// leaves only free pages' slots changed, as for a plain file.
    func writeSealedPages(_ sealed: SealedFile) throws {
        let pages = writtenPages()
        let slotSize = pageSize + CipherLayout.trailerSize
        let batch = 64
        // Sized to the commit: a buffer of all 64 slots (266 KiB at 4 KiB pages) came from fresh
        // memory on every commit, about ten page faults for a commit of a few pages.
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: min(batch, max(1, pages.count)) * slotSize, alignment: 4096)
        defer { buffer.deallocate() }
        let mirror = mappings.last!.base
        var k = 0
        while k < pages.count {
            let first = pages[k]
            var j = k
            while j < pages.count && j - k < batch && pages[j] == first + UInt32(j - k) {
                let n = pages[j]
                let source = access.pointer(n)
                let page = mirror + Int(n) * pageSize
                sealed.cipher.seal(source, number: n, version: v, into: buffer + (j - k) * slotSize)
                if source != page { page.copyMemory(from: source, byteCount: pageSize) }
                j += 1
            }
            try StorageError.wrap {
                try System.pwrite(
                    db.fd, from: buffer, count: (j - k) * slotSize,
                    offset: Int64(CipherLayout.slotOffset(first, pageSize: pageSize)))
            }
            // The mirror and the slot now hold the same page.
            for i in k..<j { sealed.record(pages[i], version: v) }
            k = j
        }
    }

    /// When a transaction on an encrypted file replaces its mapping with a larger one, the pages
    /// it wrote into the old mirror go to the new one (a plain file's mappings show the same file;
    /// mirrors are private memory).
    func carryOwnPages(from old: Mapping, to new: Mapping) {
        for n in dirty where !isInShadow(n) {
            let p = old.base + Int(n) * pageSize
            let run = p.u8(PageHeader.type) == PageType.overflow.rawValue ? max(1, Int(p.u32(PageHeader.runPages))) : 1
            guard (Int(n) + run) * pageSize <= old.length else { continue }
            (new.base + Int(n) * pageSize).copyMemory(from: p, byteCount: run * pageSize)
        }
    }

    /// A transaction on an encrypted file that ends without committing: its pages in the mirror
    /// hold what it wrote, so the mirror no longer matches their slots; young pages whose slots
    /// a failed commit may have written are sealed again as `stampYoungPage` left them.
    func forgetUncommittedPages(_ sealed: SealedFile) {
        for n in writtenPages() { sealed.record(n, version: 0) }
        guard commitWritesStarted else { return }
        let slot = UnsafeMutableRawPointer.allocate(byteCount: pageSize + CipherLayout.trailerSize, alignment: 4096)
        defer { slot.deallocate() }
        for n in youngTaken {
            let page = mappings.last!.base + Int(n) * pageSize
            sealed.cipher.seal(page, number: n, version: page.u64(PageHeader.version), into: slot)
            do {
                try StorageError.wrap {
                    try System.pwrite(
                        db.fd, from: slot, count: pageSize + CipherLayout.trailerSize,
                        offset: Int64(CipherLayout.slotOffset(n, pageSize: pageSize)))
                }
            } catch {
                // The newest record lists a page that no longer verifies: refuse writes until a
                // reopen, whose recovery falls back to the durable version.
                db.poisonedBy = "\(error)"
            }
        }
    }
}
