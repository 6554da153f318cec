internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

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
    /// The keys of frozen results once evaluated, retained by this cache.
    private let published = ManagedAtomic<Unmanaged<FrozenKeys>?>(nil)

    deinit {
        published.load(ordering: .acquiring)?.release()
    }

    /// The published frozen keys, evaluating them with `make` on first use.
    @inline(__always)
    func frozen(or make: () -> FrozenKeys) -> Unmanaged<FrozenKeys> {
        if let keys = published.load(ordering: .acquiring) { return keys }
        return publish(make)
    }

    @inline(never)
    private func publish(_ make: () -> FrozenKeys) -> Unmanaged<FrozenKeys> {
        lock.lock()
        defer { lock.unlock() }
        if let keys = published.load(ordering: .acquiring) { return keys }
        let keys = Unmanaged.passRetained(make())
        published.store(keys, ordering: .releasing)
        return keys
    }
}
