#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Observation
internal import StrataThreadShim
internal import Synchronization

/// Tells whether a `withObservationTracking` (or an `Observations` sequence) is collecting reads
/// on the calling thread by reading the thread-local that Observation's runtime keeps for it: a
/// few instructions per read, where asking Observation (``ObservationProbe``) costs an
/// out-of-line generic call and a thread-local lookup inside the runtime.
///
/// Observation keeps, per thread, a pointer to the access list of the tracking running on the
/// thread (nil when none runs), in a C++ `thread_local` of its shared library that it does not
/// export. The library's thread-local segment holds only that pointer (and the flag of its
/// one-time initialisation), so the pointer is at the start of the segment; `dl_iterate_phdr`
/// gives, for the calling thread, the address of each loaded library's thread-local segment.
/// The address found for a thread is kept in a thread-local variable (StrataThreadShim: two
/// instructions a read, where `pthread_getspecific` cost 17 and its call), so the search runs
/// once per thread.
///
/// This relies on the layout of the toolchain's library, not on its API. ``isUsable`` checks it
/// once per process: the library must be loaded as a shared library, its thread-local segment
/// must hold exactly one pointer and a flag, and the pointer must be nil before a tracking,
/// non-nil inside it (where ``ObservationProbe`` must agree) and restored after it. When any of
/// this fails (another platform, a toolchain that lays Observation out differently, a program
/// linked with the standard library statically) the slot is not used and ``ObservationGate``
/// falls back to the probe.
///
/// ## Concurrency
/// Thread-safe: each thread reads only its own thread-local and its own thread-specific value.
enum ObservationTrackingSlot {
    /// The C signature of `dl_iterate_phdr`'s callback: `(struct dl_phdr_info *, size_t, void *)`.
    private typealias Visit = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
    /// The C signature of `dl_iterate_phdr` (declared in `<link.h>`, which Swift's Glibc module
    /// does not import; found with `dlsym`).
    private typealias IterateObjects = @convention(c) (Visit, UnsafeMutableRawPointer?) -> Int32

    /// Set once ``isUsable`` answered true. An atomic rather than a lazy static: a read loads it
    /// without `swift_once`, and a thread that sees it false asks the probe.
    private static let ready = Atomic<Bool>(false)

    /// Whether the slot can stand for Observation's "is a tracking running" on this platform and
    /// toolchain; checked once, on first use.
    static let isUsable: Bool = {
        guard let slot = locate() else { return false }
        let before = slot.load(as: UnsafeRawPointer?.self)
        var inside: UnsafeRawPointer?
        var probeInside = false
        withObservationTracking {
            inside = slot.load(as: UnsafeRawPointer?.self)
            probeInside = ObservationProbe.mayBeTracking
        } onChange: {
        }
        let after = slot.load(as: UnsafeRawPointer?.self)
        guard inside != nil, inside != before, after == before, probeInside else { return false }
        strata_set_observation_slot(slot)
        ready.store(true, ordering: .relaxed)
        return true
    }()

    /// Whether a tracking is collecting reads on the calling thread. Only valid once
    /// ``isUsable`` answered true.
    @inline(__always)
    static var isTracking: Bool {
        if let slot = strata_observation_slot() { return slot.load(as: UnsafeRawPointer?.self) != nil }
        return isTrackingOnNewThread()
    }

    /// The first read of a thread: finds and keeps the thread's slot. If the thread has no
    /// slot yet (a library loaded after the thread started gets its thread-local segment on
    /// first use), no tracking ever ran on it; the probe answers, and the next read looks again.
    @inline(never)
    private static func isTrackingOnNewThread() -> Bool {
        guard ready.load(ordering: .relaxed), let slot = locate() else { return ObservationProbe.mayBeTracking }
        strata_set_observation_slot(slot)
        return slot.load(as: UnsafeRawPointer?.self) != nil
    }

    /// The address of Observation's thread-local for the calling thread, or nil when it cannot
    /// be found with certainty.
    private static func locate() -> UnsafeMutableRawPointer? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            guard let symbol = dlsym(nil, "dl_iterate_phdr") else { return nil }
            let iterate = unsafeBitCast(symbol, to: IterateObjects.self)
            var found: UnsafeMutableRawPointer?
            _ = withUnsafeMutablePointer(to: &found) { result in
                iterate(
                    { info, size, context in
                        // struct dl_phdr_info (64-bit): dlpi_addr at 0, dlpi_name at 8, dlpi_phdr at
                        // 16, dlpi_phnum at 24, dlpi_adds at 32, dlpi_subs at 40, dlpi_tls_modid at
                        // 48, dlpi_tls_data at 56; `size` tells how much of it the C library fills.
                        guard let info, let context, size >= 64,
                            let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self),
                            ObservationTrackingSlot.isObservationLibrary(name),
                            let headers = info.load(fromByteOffset: 16, as: UnsafePointer<Elf64_Phdr>?.self)
                        else { return 0 }
                        let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
                        let tls = (0..<count).map { headers[$0] }.filter { $0.p_type == UInt32(PT_TLS) }
                        // One pointer, then the one-byte flag of its initialisation: 9 to 16 bytes.
                        guard tls.count == 1, tls[0].p_memsz > 8, tls[0].p_memsz <= 16, tls[0].p_align >= 8 else {
                            return 1
                        }
                        context.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee =
                            info.load(fromByteOffset: 56, as: UnsafeMutableRawPointer?.self)
                        return 1
                    }, result)
            }
            return found
        #else
            return nil
        #endif
    }

    /// Whether the loaded object `path` is the Observation library (`libswiftObservation.so`).
    private static func isObservationLibrary(_ path: UnsafePointer<CChar>) -> Bool {
        let name = String(cString: path)
        let file = name.split(separator: "/").last.map(String.init) ?? name
        return file == "libswiftObservation.so" || file.hasPrefix("libswiftObservation.so.")
    }
}
