import Atomics
import StrataPOSIX

/// The sealed pages of an encrypted file as one mapping sees them: the file mapped read-only
/// (ciphertext and trailers, FORMAT.md "Encrypted files"), and which pages the mapping's
/// plaintext mirror holds opened.
///
/// An encrypted database's `Mapping` is a plaintext mirror: memory of this process, as long as a
/// plain file's mapping, with the two meta pages mapped from the file over its start. Readers
/// reach page `n` through `PageAccess.page`, which opens the page's slot into the mirror the
/// first time it reaches it at the version the slot's trailer names (`reveal`), and later visits
/// read the mirror. A page is rewritten only after it was freed, and every write seals it with
/// the writer's version, so a slot whose trailer still names the recorded version still holds
/// what was opened; one written since (by any process) is opened again.
///
/// ## Concurrency
/// Any thread may reveal pages at any time: two threads opening the same slot at once write the
/// same bytes, and each entry is one relaxed atomic word. What a page holds is ordered by the
/// snapshot that reaches it (published through the lock file), as for `CheckedPages`.
final class SealedFile: @unchecked Sendable {
    let cipher: PageCipher
    /// The file, mapped read-only; its length covers the slots of every page the mirror covers.
    let file: MappedRegion
    /// Per page, the trailer version of the slot the mirror holds opened (0: none).
    let opened: CheckedPages
    let pageSize: Int
    let path: PathName

    init(cipher: PageCipher, file: MappedRegion, pages: Int, path: PathName) {
        self.cipher = cipher
        self.file = file
        self.opened = CheckedPages(pages: pages)
        self.pageSize = cipher.pageSize
        self.path = path
    }

    deinit {
        System.munmap(file)
        opened.deallocate()
    }

    @inline(__always)
    func slot(_ n: UInt32) -> UnsafeRawPointer {
        UnsafeRawPointer(file.base + CipherLayout.slotOffset(n, pageSize: pageSize))
    }

    /// The version page `n`'s slot was sealed by.
    @inline(__always)
    func sealedVersion(_ n: UInt32) -> UInt64 {
        slot(n).u64(pageSize + CipherLayout.trailerVersion)
    }

    /// Makes the mirror page `page` hold page `n` as the file holds it now, opening its slot
    /// unless that was done since it was last sealed.
    /// - Throws: `StorageError.pageAuthenticationFailed` when the slot does not open.
    @inline(__always)
    func reveal(_ n: UInt32, into page: UnsafeMutableRawPointer) throws {
        let version = sealedVersion(n)
        if version == 0 || UnsafeAtomic<UInt64>(at: opened.words + Int(n)).load(ordering: .acquiring) != version {
            try open(n, version: version, into: page)
        }
    }

    @inline(never)
    func open(_ n: UInt32, version: UInt64, into page: UnsafeMutableRawPointer) throws {
        // By way of a buffer: `PageCipher.open` may zero its output when the slot fails, and a
        // snapshot may be reading the mirror's page (another thread may have opened and recorded
        // it since this one looked), so a failed open must leave the page as it was.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: pageSize, alignment: 64)
        defer { buffer.deallocate() }
        if let problem = cipher.open(slot(n), number: n, into: buffer) {
            throw StorageError.pageAuthenticationFailed(path: path.string, page: n, reason: problem)
        }
        page.copyMemory(from: buffer, byteCount: pageSize)
        record(n, version: version)
    }

    /// How many scans may open page `n` into a buffer of their own before the page is opened
    /// into the mirror (see `scanPage`).
    static let scanVisitsBeforeMirror: UInt64 = 2
    /// The bit of an `opened` word at which the count of a page's scan visits starts. Versions
    /// stay far below 2^62 (a commit a nanosecond would take 146 years to reach it).
    static let scanVisitShift: UInt64 = 62

    /// Page `n` for a scan that reads it only until it moves to the next leaf: the mirror's page
    /// (`mirror`) when the mirror holds it; else the page opened into `scratch`, the scan's own
    /// buffer, without touching the mirror; the mirror's page again from the third scan that
    /// reaches it (`scanVisitsBeforeMirror`).
    ///
    /// Why: every page opened into the mirror takes fresh memory, whose first touch costs a page
    /// fault and clearing (more than the AES-GCM open itself); a scan reads each leaf once and
    /// moves on, so opening into a buffer it reuses costs only the cipher, and a table scanned
    /// once (or counted and then summed) does not grow the process by its size. A page scanned
    /// again and again is put in the mirror after two visits: its next scans read it for free.
    /// The visits are counted in the page's `opened` word (the high bits, beside the version
    /// they were made at); a word that holds a count never equals a version, so `reveal` still
    /// opens such a page into the mirror.
    ///
    /// - Throws: `StorageError.pageAuthenticationFailed` when the slot does not open.
    func scanPage(
        _ n: UInt32, mirror: UnsafeMutableRawPointer, scratch: UnsafeMutableRawPointer
    ) throws -> UnsafeMutableRawPointer {
        let version = sealedVersion(n)
        guard version != 0, version >> Self.scanVisitShift == 0, Int(n) < opened.count else {
            try reveal(n, into: mirror)
            return mirror
        }
        let word = UnsafeAtomic<UInt64>(at: opened.words + Int(n))
        let held = word.load(ordering: .acquiring)
        if held == version { return mirror }
        let versionMask: UInt64 = (1 << Self.scanVisitShift) - 1
        let visits = held & versionMask == version ? held >> Self.scanVisitShift : 0
        if visits >= Self.scanVisitsBeforeMirror {
            try open(n, version: version, into: mirror)
            return mirror
        }
        if let problem = cipher.open(slot(n), number: n, into: scratch) {
            throw StorageError.pageAuthenticationFailed(path: path.string, page: n, reason: problem)
        }
        // A hint: when another thread changed the word meanwhile (it opened the page into the
        // mirror, or counted its own visit), its value stands.
        _ = word.compareExchange(
            expected: held, desired: version | (visits + 1) << Self.scanVisitShift, ordering: .relaxed)
        return scratch
    }

    /// Records that the mirror holds page `n` as sealed by `version` (0: holds nothing known).
    /// Release, paired with `reveal`'s acquire: a thread that sees the record also sees the
    /// plaintext written before it (free on x86; needed on ARM).
    @inline(__always)
    func record(_ n: UInt32, version: UInt64) {
        guard Int(n) < opened.count else { return }
        UnsafeAtomic<UInt64>(at: opened.words + Int(n)).store(version, ordering: .releasing)
    }
}
