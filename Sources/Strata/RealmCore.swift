import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// Where a realm may be used.
enum Confinement {
    /// The thread that opened it (a process-unique id: pthread ids are reused after a thread exits).
    case thread(UInt64)
    /// The main thread, and blocks of the main queue (which run on another thread once the
    /// program called `dispatchMain()`).
    case main
    /// Blocks running on one serial dispatch queue.
    case queue(QueueIdentity)
    /// Code isolated to one actor (`Realm(configuration:actor:)`).
    case actor(ActorBinding)
    /// Anywhere, read-only: a frozen realm.
    case frozen
}

/// The actor a realm is confined to: its executor (to check isolation) and a weak reference (to
/// run asynchronous write blocks and completions on it; the actor usually owns the realm).
final class ActorBinding: @unchecked Sendable {
    weak var actor: (any Actor)?
    let executor: UnownedSerialExecutor
    let id: ObjectIdentifier

    init(_ actor: any Actor) {
        self.actor = actor
        self.executor = actor.unownedExecutor
        self.id = ObjectIdentifier(actor)
    }

    /// Whether the calling code runs on this actor's executor.
    var isCurrent: Bool { ActorIsolation.isCurrent(executor) }
}

/// Asks the Swift runtime whether code runs on an executor.
///
/// Swift has no public query that answers with a Bool (`Actor.preconditionIsolated()` stops the
/// process instead), so this calls the runtime's `swift_task_isCurrentExecutorWithFlags` with no
/// flags (answer, never trap), looked up once with `dlsym`. Its C ABI takes the executor's two
/// words and the flags. If a future runtime lacks the symbol, actor confinement is not checked
/// (the answer is always true) rather than refusing every access.
enum ActorIsolation {
    private typealias Query = @convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool
    private static let query: Query? = {
        guard let symbol = dlsym(nil, "swift_task_isCurrentExecutorWithFlags") else { return nil }
        return unsafeBitCast(symbol, to: Query.self)
    }()

    static func isCurrent(_ executor: UnownedSerialExecutor) -> Bool {
        guard let query else { return true }
        let words = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self)
        return query(words.0, words.1, 0)
    }
}

/// A process-unique id of the calling thread, kept in thread-specific storage (a few
/// nanoseconds per read; `pthread_self()` values are reused once a thread exits).
enum ThreadID {
    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()
    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var next: UInt64 = 1
        func take() -> UInt64 { lock.lock(); defer { lock.unlock() }; next += 1; return next - 1 }
    }

    /// The main thread's id, once a realm of the main context was opened on it (0 before).
    static let main = Atomic<UInt64>(0)

    @inline(__always)
    static var current: UInt64 {
        if let p = pthread_getspecific(key) { return UInt64(UInt(bitPattern: p)) }
        let id = counter.take()
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(id)))
        return id
    }
}

/// Identifies a dispatch queue from inside its blocks (`DispatchQueue.getSpecific`).
final class QueueIdentity: @unchecked Sendable {
    /// Realms confined to this queue, by file path (weak).
    private var realms: [String: WeakCore] = [:]

    final class WeakCore {
        weak var core: RealmCore?
        init(_ core: RealmCore) { self.core = core }
    }

    func cached(_ path: String) -> RealmCore? {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        return realms[path]?.core
    }

    func remember(_ core: RealmCore, _ path: String) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        realms = realms.filter { $0.value.core != nil }
        realms[path] = WeakCore(core)
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
            // remember the main thread's id for the cheap check in `RealmCore.isOnOwner`.
            _ = main
            ThreadID.main.store(ThreadID.current, ordering: .relaxed)
            return true
        }
        return current === main
    }
}

/// The state one `Realm` value shares with its copies: the file, the current snapshot or write
/// transaction, and where it may be used.
///
/// ## Concurrency
/// Confined as its `confinement` says; a frozen core is immutable once `freeze()` returns, so
/// threads read it at once without a lock.
final class RealmCore {
    let configuration: Realm.Configuration
    let file: RealmFile
    let confinement: Confinement
    var readTxn: StoreTransaction?
    /// The pinned version `readTxn` reads (shared with realms frozen from it).
    var snapshot: PinnedSnapshot?
    var writeTxn: StoreTransaction?
    var stamp: UInt64 = 0
    /// `add` builds each row's values here, reused from object to object (an array allocated per
    /// object cost a generic metadata lookup each time). Empty while in use.
    var valueScratch: [CoreValue] = []
    var pendingError: Realm.Error?
    var bindingCache: [ObjectIdentifier: TableBinding] = [:] {
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
            return ThreadID.current == ThreadID.main.load(ordering: .relaxed) || QueueIdentity.current === QueueIdentity.main
        case .queue(let q): return QueueIdentity.current === q
        case .actor(let a): return a.isCurrent
        case .frozen: return true
        }
    }

    // MARK: Per-thread cache

    private final class Weak {
        weak var core: RealmCore?
        init(_ core: RealmCore) { self.core = core }
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
    static func cached(path: String, confinement: Confinement) -> RealmCore? {
        switch confinement {
        case .queue(let q): return q.cached(path)
        case .frozen: return nil
        case .thread: return cached(cacheKey(path: path, confinement: confinement))
        case .main:
            actorLock.lock()
            defer { actorLock.unlock() }
            return actorRealms[cacheKey(path: path, confinement: confinement)]?.core
        case .actor(let a):
            actorLock.lock()
            defer { actorLock.unlock() }
            guard let core = actorRealms[cacheKey(path: path, confinement: confinement)]?.core,
                  case .actor(let b) = core.confinement, b.actor != nil, b.actor === a.actor else { return nil }
            return core
        }
    }

    static func remember(_ core: RealmCore, path: String) {
        switch core.confinement {
        case .queue(let q): q.remember(core, path)
        case .frozen: return
        case .thread: remember(core, cacheKey(path: path, confinement: core.confinement))
        case .main, .actor:
            actorLock.lock()
            defer { actorLock.unlock() }
            actorRealms = actorRealms.filter { $0.value.core != nil }
            actorRealms[cacheKey(path: path, confinement: core.confinement)] = Weak(core)
        }
    }

    /// Realms of the main context and of actors, by cache key (weak).
    private static let actorLock = NSLock()
    private nonisolated(unsafe) static var actorRealms: [String: Weak] = [:]

    /// The realm this thread already has open under `key`.
    static func cached(_ key: String) -> RealmCore? {
        guard let box = Thread.current.threadDictionary[threadKey] as? CacheBox else { return nil }
        return box.entries[key]?.core
    }

    static func remember(_ core: RealmCore, _ key: String) {
        if case .frozen = core.confinement { return }
        let dict = Thread.current.threadDictionary
        let box = (dict[threadKey] as? CacheBox) ?? CacheBox()
        box.entries = box.entries.filter { $0.value.core != nil }
        box.entries[key] = Weak(core)
        dict[threadKey] = box
    }

    private final class CacheBox: NSObject {
        var entries: [String: Weak] = [:]
    }
}

extension Realm {
    /// Turns the thread-confinement check off (true by default). Only for measuring what the check
    /// costs (`strata-bench concurrency`); never turn it off in an application.
    ///
    /// Read on every access to a realm, so it opts out of the run-time exclusivity check a global
    /// variable's read otherwise costs (about 75 instructions, a third of the check itself).
    @exclusivity(unchecked) public nonisolated(unsafe) static var _strataConfinementChecks = true

    /// Whether this realm is frozen: an immutable snapshot readable from any thread.
    public var isFrozen: Bool { core.isFrozen }

    /// Stops with "Realm accessed from incorrect thread." (through `violationHandler`) when the
    /// calling thread may not use this realm. Returns whether the access may go on.
    @inline(__always)
    func checkThread() -> Bool {
        if core.isOnOwner { return true }
        return Realm.violation("Realm accessed from incorrect thread. ('\(file.path)' belongs to another thread or queue; pass a ThreadSafeReference or a frozen object instead.)", fallback: false)
    }

    /// Throws `.wrongThread` when the calling thread may not use this realm.
    func requireThread() throws {
        guard core.isOnOwner else {
            throw Realm.Error(.wrongThread, "Realm accessed from incorrect thread. ('\(file.path)' belongs to another thread or queue; open a realm on this thread, or pass a ThreadSafeReference.)", path: file.path)
        }
    }
}
