import StrataPOSIX

extension WriteTransaction {
    /// Commit step 11: after a durable commit that followed a durable one, shortens the file to
    /// the pages in use plus a sixteenth (at least 1 MiB) of headroom, rounded up to a MiB, when
    /// more than 4 MiB, and more than an eighth of that length, lies past it. (The file grows in
    /// steps of an eighth, which leaves at most a sixteenth past the headroom, so ordinary growth
    /// never triggers it.)
    ///
    /// Why: the file grows ahead of use (`ensureCapacity`), and a bulk load reaches its
    /// high-water mark before step 0 packs its leaves, so it used to end with a third of its
    /// length unused. Safe because nothing lies past the kept length: the new version uses pages
    /// below `pageCount`; the other meta slot (the previous durable version, the fallback after a
    /// crash) below its own page count, which the kept length covers too; and any older snapshot
    /// still pinned keeps its pages from being reused, so they are below `pageCount`. Readers
    /// never touch pages past their version's count. Best effort: a failure leaves the file
    /// longer, which is harmless.
    /// Commit step 11 for compact's last commit (`shortensFileToPageCount`): shortens the file to
    /// the pages in use, no headroom, for the same reasons `giveBackSpace` may. Inside the commit,
    /// with the writer lock held, so the version moves with the length: a handle whose cached
    /// length predates it looks the length up again. Best effort: a failure leaves the file longer.
    func shortenToPageCount() {
        let keep = db.fileBytes(forPages: max(pageCount, baseMeta.pageCount))
        guard fileCapacity > keep else { return }
        do {
            try System.ftruncate(db.fd, length: keep)
            try System.fdatasync(db.fd)
            fileCapacity = keep
        } catch {
            // The commit stands; the file keeps its length (or its new length, when only the sync
            // failed: the next transaction of this handle then looks it up).
            fileCapacity = (try? System.fileSize(db.fd)) ?? fileCapacity
        }
    }

    func giveBackSpace() {
        let used = db.fileBytes(forPages: max(pageCount, baseMeta.pageCount))
        let keep = (used + max(1 << 20, used / 16) + (1 << 20) - 1) / (1 << 20) * (1 << 20)
        guard fileCapacity - keep > max(4 << 20, keep / 8) else { return }
        do {
            try System.ftruncate(db.fd, length: keep)
            fileCapacity = keep
        } catch {
            // The commit stands; the file keeps its length.
        }
    }
}
