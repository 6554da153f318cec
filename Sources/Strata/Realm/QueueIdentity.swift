import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// Identifies a dispatch queue from inside its blocks (`DispatchQueue.getSpecific`).
final class QueueIdentity: @unchecked Sendable {
    /// Realms confined to this queue, by file path (weak).
    private var realms: [String: WeakRealmState] = [:]

    final class WeakRealmState {
        weak var realmState: RealmState?
        init(_ realmState: RealmState) { self.realmState = realmState }
    }

    func cached(_ path: String) -> RealmState? {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        return realms[path]?.realmState
    }

    func remember(_ realmState: RealmState, _ path: String) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        realms = realms.filter { $0.value.realmState != nil }
        realms[path] = WeakRealmState(realmState)
    }

    static let key = DispatchSpecificKey<QueueIdentity>()
    private static let lock = NSLock()

    /// The identity of `queue`, tagging the queue on first use.
    static func of(_ queue: DispatchQueue) -> QueueIdentity {
        lock.lock()
        defer { lock.unlock() }
        if let existing = queue.getSpecific(key: key) { return existing }
        let id = QueueIdentity()
        queue.setSpecific(key: key, value: id)
        return id
    }

    /// The identity of the queue running the current block, if it was tagged.
    static var current: QueueIdentity? { DispatchQueue.getSpecific(key: key) }

    /// The main queue's identity (tagging the main queue on first use).
    static let main = QueueIdentity.of(DispatchQueue.main)

    /// Whether the caller runs on the main thread or in a block of the main queue.
    static var isMainContext: Bool {
        if Thread.isMainThread {
            // Tag the main queue before any realm of the main context exists, so that blocks of
            // the main queue running on another thread (after dispatchMain()) are recognised;
            // remember the main thread's id for the cheap check in `RealmState.isOnOwner`.
            _ = main
            ThreadID.main.store(ThreadID.current, ordering: .relaxed)
            return true
        }
        return current === main
    }
}
