import Atomics
import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One memory mapping of the data file, shared by the snapshots that started while it was current.
///
/// When the file outgrows the mapping, the database creates a larger one; snapshots keep the
/// mapping they started with (it still maps every page they can reach: pages are never moved, and
/// a mapping shows the file's current contents), and it is unmapped when the last one ends.
final class Mapping: @unchecked Sendable {
    let region: MappedRegion
    /// The pages checked through this mapping (see `CheckedPages`).
    let checked: CheckedPages
    /// For an encrypted file, its sealed pages; `region` is then the plaintext mirror (see `SealedFile`).
    let sealed: SealedFile?
    @inline(__always) var base: UnsafeMutableRawPointer { region.base }
    @inline(__always) var length: Int { region.length }

    init(region: MappedRegion, sealed: SealedFile? = nil) {
        self.region = region
        self.sealed = sealed
        checked = CheckedPages(pages: region.length / minimumPageSize)
    }
    deinit {
        System.munmap(region)
        checked.deallocate()
    }
}
