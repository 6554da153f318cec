import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// The state one `Realm` value shares with its copies: the file, the current snapshot or write
/// transaction, and where it may be used.
///
/// ## Concurrency
/// Confined as its `confinement` says; a frozen realm state is immutable once `freeze()` returns, so
/// threads read it at once without a lock.
final class RealmState {
    let configuration: Realm.Configuration
    let file: RealmFile
    let confinement: Confinement
    var readTxn: StoreTransaction?
    /// The pinned version `readTxn` reads (shared with realms frozen from it).
    var snapshot: PinnedSnapshot?
    var writeTxn: StoreTransaction?
    var stamp: UInt64 = 0
    /// How many times `invalidate()` ran: objects made before the last one are invalidated.
    var invalidations: UInt32 = 0
    /// `add` builds each row's values here, reused from object to object (an array allocated per
    /// object cost a generic metadata lookup each time). Empty while in use.
    var valueScratch: [StoreValue] = []
    var pendingError: Realm.Error?
    var bindingCache = TypeTable<TableBinding>() {
        didSet { lastBinding = nil }
    }
    /// The binding found last (a loop of `add`s asks for one type over and over; hashing its
    /// identifier into `bindingCache` cost about 180 instructions per object).
    @exclusivity(unchecked) var lastBinding: (type: ObjectIdentifier, binding: TableBinding)?
    /// Observers of `Realm.observe` on this realm (for `.refreshRequired`).
    var realmObservers: [ObjectIdentifier: WeakRealmObserver] = [:]
    /// Whether notifications move this realm to the version they describe.
    var autorefresh = true
    /// Notification jobs kept while `autorefresh` is off, with their versions (for `refresh()`).
    var held: [([NotificationJob], PinnedSnapshot?)] = []
    /// The serial queue of a queue-confined realm (where its asynchronous writes run).
    var queue: DispatchQueue?
    /// Asynchronous writes of this realm (created on first use).
    var asyncWrites: AsyncWriteQueue?
    /// Whether an `asyncWrite` block of this realm is running.
    var inAsyncWriteBlock = false

    init(configuration: Realm.Configuration, file: RealmFile, confinement: Confinement) {
        self.configuration = configuration
        self.file = file
        self.confinement = confinement
    }

    deinit {
        writeTxn?.write?.abort()
    }

    var isFrozen: Bool {
        if case .frozen = confinement { return true }
        return false
    }

    /// Whether the calling thread may use this realm.
    @inline(__always)
    var isOnOwner: Bool {
        if !Realm._strataConfinementChecks { return true }
        switch confinement {
        case .thread(let t): return t == ThreadID.current
        case .main:
            // `Thread.isMainThread` costs more than the rest of a point read; the id compare does not.
            return ThreadID.current == ThreadID.main.load(ordering: .relaxed)
                || QueueIdentity.current === QueueIdentity.main
        case .queue(let q): return QueueIdentity.current === q
        case .actor(let a): return a.isCurrent
        case .frozen: return true
        }
    }

    // MARK: Per-thread cache

    private final class Weak {
        weak var realmState: RealmState?
        init(_ realmState: RealmState) { self.realmState = realmState }
    }

    static func cacheKey(path: String, confinement: Confinement) -> String {
        switch confinement {
        case .thread: return path
        case .main: return path + "#main"
        case .queue(let q): return path + "#queue-\(ObjectIdentifier(q).hashValue)"
        case .actor(let a): return path + "#actor-\(a.id.hashValue)"
        case .frozen: return path + "#frozen"
        }
    }

    private static let threadKey = "io.strata.realms"

    /// The realm this thread (or queue) already has open for `path`.
    static func cached(path: String, confinement: Confinement) -> RealmState? {
        switch confinement {
        case .queue(let q): return q.cached(path)
        case .frozen: return nil
        case .thread: return cached(cacheKey(path: path, confinement: confinement))
        case .main:
            actorLock.lock()
            defer { actorLock.unlock() }
            return actorRealms[cacheKey(path: path, confinement: confinement)]?.realmState
        case .actor(let a):
            actorLock.lock()
            defer { actorLock.unlock() }
            guard let realmState = actorRealms[cacheKey(path: path, confinement: confinement)]?.realmState,
                case .actor(let b) = realmState.confinement, b.actor != nil, b.actor === a.actor
            else { return nil }
            return realmState
        }
    }

    static func remember(_ realmState: RealmState, path: String) {
        switch realmState.confinement {
        case .queue(let q): q.remember(realmState, path)
        case .frozen: return
        case .thread: remember(realmState, cacheKey(path: path, confinement: realmState.confinement))
        case .main, .actor:
            actorLock.lock()
            defer { actorLock.unlock() }
            actorRealms = actorRealms.filter { $0.value.realmState != nil }
            actorRealms[cacheKey(path: path, confinement: realmState.confinement)] = Weak(realmState)
        }
    }

    /// Realms of the main context and of actors, by cache key (weak).
    private static let actorLock = NSLock()
    private nonisolated(unsafe) static var actorRealms: [String: Weak] = [:]

    /// The realm this thread already has open under `key`.
    static func cached(_ key: String) -> RealmState? {
        guard let box = Thread.current.threadDictionary[threadKey] as? CacheBox else { return nil }
        return box.entries[key]?.realmState
    }

    static func remember(_ realmState: RealmState, _ key: String) {
        if case .frozen = realmState.confinement { return }
        let dict = Thread.current.threadDictionary
        let box = (dict[threadKey] as? CacheBox) ?? CacheBox()
        box.entries = box.entries.filter { $0.value.realmState != nil }
        box.entries[key] = Weak(realmState)
        dict[threadKey] = box
    }

    private final class CacheBox: NSObject {
        var entries: [String: Weak] = [:]
    }
}
