import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery
internal import Synchronization

/// Memoized keys of one `Results` value.
///
/// ## Concurrency
/// Results of a live realm use `stamp` and `keys` on their realm's thread only. Frozen results
/// may be read from several threads at once: the first reader evaluates their keys under `lock`
/// and publishes them; every later read is one atomic load, with no lock and no write to shared
/// memory (not even a reference count), so readers on different cores do not contend.
final class ResultsCache {
    var stamp: UInt64 = .max
    var keys: [Int64]?
    /// The elements of results of values (an `[Element]`), evaluated at `stamp`.
    var elements: Any?
    private let lock = NSLock()
    /// The keys of frozen results once evaluated, retained by this cache: their `Unmanaged`
    /// pointer as an integer, 0 until published. An `Atomic<UInt>`
    /// rather than a `ManagedAtomic<Unmanaged<FrozenKeys>?>`: making that generic class's metadata
    /// looked up its conformances at run time, about 1.5 million instructions for the first
    /// `Results` of each process.
    private let published = Atomic<UInt>(0)

    deinit {
        Self.keys(published.load(ordering: .acquiring))?.release()
    }

    /// The keys `raw` (a value of `published`) points at, nil for 0.
    @inline(__always)
    private static func keys(_ raw: UInt) -> Unmanaged<FrozenKeys>? {
        UnsafeRawPointer(bitPattern: raw).map { Unmanaged.fromOpaque($0) }
    }

    /// The published frozen keys, evaluating them with `make` on first use.
    @inline(__always)
    func frozen(or make: () -> FrozenKeys) -> Unmanaged<FrozenKeys> {
        if let keys = Self.keys(published.load(ordering: .acquiring)) { return keys }
        return publish(make)
    }

    @inline(never)
    private func publish(_ make: () -> FrozenKeys) -> Unmanaged<FrozenKeys> {
        lock.lock()
        defer { lock.unlock() }
        if let keys = Self.keys(published.load(ordering: .acquiring)) { return keys }
        let keys = Unmanaged.passRetained(make())
        published.store(UInt(bitPattern: keys.toOpaque()), ordering: .releasing)
        return keys
    }
}
