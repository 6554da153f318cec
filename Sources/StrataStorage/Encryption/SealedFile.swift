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
        if let problem = cipher.open(slot(n), number: n, into: page) {
            throw StorageError.pageAuthenticationFailed(path: path.string, page: n, reason: problem)
        }
        record(n, version: version)
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
