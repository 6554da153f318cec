extension Database {
    /// Checks the newest version page by page: every checksum, the B+tree structure and key order
    /// of every tree, and that every page is either in use exactly once or free. Holds the writer
    /// lock while it runs (readers continue).
    /// - Throws: ``StorageError/corruptPage(path:page:reason:)`` naming the first bad page.
    public func verify() throws -> VerifyReport {
        // After a failed durability step this handle's view of the file is not trustworthy; the
        // answer is to reopen (which verifies), not to report corruption.
        if let cause = poisonedBy { throw StorageError.needsReopen(path: path, cause: cause) }
        try acquireWriter()
        defer { releaseWriter() }
        try adoptUnpublishedCommit()
        let st = lockFile.readState()
        let mapping = try stateLock.withLock { try ensureMapping(pages: st.pageCount) }
        let acc = PageAccess(
            base: mapping.base, pageSize: pageSize, pageCount: st.pageCount, path: path, sealed: mapping.sealed)
        guard
            case .success(let meta) = MetaRecord.decode(
                mapping.base + Int(st.latestSlot) * pageSize, pageSize: pageSize, slot: Int(st.latestSlot)),
            meta.version == st.version
        else { throw acc.corrupt(st.latestSlot, "meta page does not match the published version") }
        var verifier = Verifier(access: acc, meta: meta)
        return try withExtendedLifetime(mapping) { try verifier.run() }
    }
}
