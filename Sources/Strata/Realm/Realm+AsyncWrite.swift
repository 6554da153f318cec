import Dispatch
import Foundation
internal import StrataCore
internal import StrataStorage

// Asynchronous writes (seeds 000, 003, 004): `writeAsync`, `beginAsyncWrite`,
// `commitAsyncWrite(allowGrouping:)`, `cancelAsyncWrite`, `isPerformingAsynchronousWriteOperations`,
// `asyncWrite` and actor-confined realms. The machinery is in AsyncWriteQueue.swift.

extension Realm {
    // MARK: Completion-handler API

    /// Runs `block` in a write transaction on this realm's thread, queue or actor, without
    /// blocking the caller: waiting for the write lock and making the commit durable happen on
    /// background threads.
    ///
    /// ```swift
    /// realm.writeAsync {
    ///     person.dogs.append(Dog(value: ["name": "Ben", "age": 13]))
    /// } onComplete: { error in
    ///     // On this realm's thread, once the commit is on disk (or failed).
    /// }
    /// ```
    ///
    /// The block runs later, never inside this call. When it returns, the transaction is
    /// committed (as `commitAsyncWrite()` would) unless the block committed or cancelled it
    /// itself; a failed `add`/`create` inside it cancels the transaction and `onComplete`
    /// receives the error. Calling `write` inside the block is an error (the realm is already in
    /// a write transaction).
    ///
    /// The realm needs a scheduler: the main thread, a thread running its `RunLoop`, a serial
    /// queue (`Realm(configuration:queue:)`) or an actor (`Realm(configuration:actor:)`).
    /// Elsewhere the call stops with "Cannot schedule async transaction. Make sure you are
    /// running from inside a run loop." (through `Realm.violationHandler`).
    ///
    /// - Parameters:
    ///   - tokens: notification tokens this commit does not notify (interface-driven writes).
    ///   - block: the writes, run in the transaction on the realm's context.
    ///   - onComplete: run on the realm's context after the commit is durable, with nil, or with
    ///     the error that cancelled or failed it.
    /// - Returns: an id for `cancelAsyncWrite(_:)`, which drops the block if it has not run yet.
    @discardableResult
    public func writeAsync(
        withoutNotifying tokens: [NotificationToken] = [], _ block: @escaping () -> Void,
        onComplete: ((Swift.Error?) -> Void)? = nil
    ) -> AsyncTransactionId {
        guard let queue = asyncQueue(beginning: true) else { return 0 }
        return queue.enqueue(.block(block, commitsOnReturn: true, onComplete: onComplete, skipping: tokens))
    }

    /// Queues `asyncWriteBlock` to run in a write transaction on this realm's context once the
    /// write lock is taken (waiting for it on a background thread, never on the caller's).
    ///
    /// ```swift
    /// realm.beginAsyncWrite {
    ///     realm.add(dog)
    ///     realm.commitAsyncWrite(allowGrouping: true) { error in ... }
    /// }
    /// ```
    ///
    /// The block must end the transaction: `commitAsyncWrite` commits it, `cancelWrite()`
    /// discards it; returning without either discards it.
    /// - Returns: an id for `cancelAsyncWrite(_:)`: before the block runs it drops the block,
    ///   while it runs it cancels the transaction.
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        guard let queue = asyncQueue(beginning: true) else { return 0 }
        return queue.enqueue(.block(asyncWriteBlock, commitsOnReturn: false, onComplete: nil))
    }

    /// Commits the current write transaction (from `beginAsyncWrite` or `beginWrite`) without
    /// waiting for the disk, and returns at once.
    ///
    /// The new version is visible to this realm and to readers everywhere when the call
    /// returns; a background thread then makes it durable and `onComplete` runs on this realm's
    /// context, after the data is on disk. With `allowGrouping`, consecutive commits share one
    /// `fdatasync`: while more asynchronous writes are queued, or until the realm's context
    /// returns to its run loop or queue, commits go on without syncing (up to 1,024 per sync). A
    /// crash loses only commits whose completion had not run.
    ///
    /// Calling it outside a write transaction, or inside a commit completion, is an error.
    /// - Parameters:
    ///   - allowGrouping: let this commit share a sync with the next ones.
    ///   - tokens: notification tokens this commit does not notify (interface-driven writes).
    ///   - onComplete: run on the realm's context once the commit is durable, with nil or the
    ///     error (a failed `add` in the transaction, a storage error).
    /// - Returns: an id for `cancelAsyncWrite(_:)`, which cancels only the completion, never the
    ///   commit.
    @discardableResult
    public func commitAsyncWrite(
        allowGrouping: Bool = false, withoutNotifying tokens: [NotificationToken] = [],
        _ onComplete: ((Swift.Error?) -> Void)? = nil
    ) -> AsyncTransactionId {
        guard checkThread() else { return 0 }
        guard let queue = asyncQueue(beginning: false) else { return 0 }
        if queue.inCompletion {
            return Realm.violation(
                "Can't commit a write transaction from inside a commit completion callback.", fallback: 0)
        }
        return queue.commit(allowGrouping: allowGrouping, onComplete: onComplete, skipping: tokens)
    }

    /// Cancels an asynchronous write or the completion of an asynchronous commit.
    ///
    /// With a `beginAsyncWrite`/`writeAsync` id, a block that has not run is dropped; called
    /// from inside that block, it cancels the transaction. With a `commitAsyncWrite` id, the
    /// completion will not be called; the commit still happens. Ids that are unknown or
    /// already done are ignored.
    /// - Throws: `Realm.Error.wrongThread` from another thread.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        try requireThread()
        realmState.asyncWrites?.cancel(asyncTransactionId)
    }

    /// Whether this realm has asynchronous writes queued, running, or waiting to become
    /// durable. It becomes true with `writeAsync`, `beginAsyncWrite` or `commitAsyncWrite` and
    /// stays true until every completion has run; it is also true inside an `asyncWrite` block. While it is true, `invalidate()` waits for
    /// pending commits, and the file stays open.
    public var isPerformingAsynchronousWriteOperations: Bool {
        guard checkThread() else { return false }
        return realmState.inAsyncWriteBlock || (realmState.asyncWrites?.isBusy ?? false)
    }

    // MARK: async/await

    /// Runs `block` in a write transaction and returns its result, suspending (never blocking
    /// the thread) while it waits for the write lock and for the commit to become durable.
    ///
    /// ```swift
    /// actor RealmActor {
    ///     var realm: Realm!
    ///     init() async throws { realm = try await Realm(actor: self) }
    ///     func createTodo(name: String) async throws {
    ///         try await realm.asyncWrite { realm.create(Todo.self, value: ["name": name]) }
    ///     }
    /// }
    /// ```
    ///
    /// Call it from the realm's own isolation: the actor of `Realm(configuration:actor:)`, or
    /// the main actor for a realm of the main thread. Other code of the actor may run while it
    /// is suspended (actors are reentrant), but the block only ever runs inside its own
    /// transaction: the lock is handed to this call and checked when it resumes. If the task is
    /// cancelled before the block runs, nothing is written and it throws `CancellationError`;
    /// once the block ran, the commit completes.
    ///
    /// `tokens` names notification tokens the commit does not notify (interface-driven writes).
    ///
    /// - Throws: `CancellationError`; what `block` throws (the transaction is cancelled); the
    ///   error of a failed `add`/`create`; `Realm.Error.wrongThread` when called, or resumed,
    ///   outside the realm's isolation; storage errors.
    @discardableResult
    public func asyncWrite<Result>(
        withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Result {
        try requireThread()
        try checkCanBeginWrite()
        guard !isInWriteTransaction else {
            // Waiting here for our own lock would never end.
            throw Realm.Error(
                .alreadyInWriteTransaction,
                "asyncWrite was called inside a write transaction of this realm. Commit or cancel it first.",
                path: file.path)
        }
        guard let queue = asyncQueue(beginning: true) else {
            throw Realm.Error(.wrongThread, Self.noSchedulerMessage, path: file.path)
        }
        var first = false
        while true {
            try Task.checkCancellation()
            let ticket = WriteTicket()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Swift.Error>) in
                    ticket.wait(c)
                    _ = queue.enqueue(.task(ticket), atFront: first)
                }
            } onCancel: {
                ticket.cancel()
            }
            guard realmState.isOnOwner else {
                let scheduler = queue.scheduler
                let realmState = self.realmState
                let box = UncheckedBox(ticket)
                scheduler.schedule { realmState.asyncWrites?.unreserve(box.value) }
                throw Realm.Error(
                    .wrongThread,
                    "Realm accessed from incorrect thread. (asyncWrite resumed outside the isolation of '\(file.path)'; call it from the actor the realm is confined to, or from the main actor for a realm of the main thread.)",
                    path: file.path)
            }
            if Task.isCancelled {
                queue.unreserve(ticket)
                throw CancellationError()
            }
            guard let txn = queue.claim(ticket) else {
                // A synchronous write on this realm used the lock meanwhile: ask again, first in line.
                first = true
                continue
            }
            install(txn)
            break
        }
        let result: Result
        do {
            // As in RealmSwift, the realm reports asynchronous work while the block runs.
            realmState.inAsyncWriteBlock = true
            defer { realmState.inAsyncWriteBlock = false }
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            queue.afterWrite()
            throw error
        }
        guard isInWriteTransaction else {
            queue.afterWrite()
            return result
        }
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, Swift.Error>) in
            _ = queue.commit(
                allowGrouping: true,
                onComplete: { error in
                    if let error { c.resume(throwing: error) } else { c.resume() }
                }, skipping: tokens)
        }
        return result
    }

    // MARK: Actor-confined realms

    /// Opens a realm confined to `actor`: use it (and its objects and results) only from code
    /// isolated to that actor. Asynchronous writes run their blocks and completions on the actor.
    ///
    /// ```swift
    /// actor RealmActor {
    ///     var realm: Realm!
    ///     init() async throws { realm = try await Realm(actor: self) }
    ///     var count: Int { realm.objects(Todo.self).count }
    /// }
    /// ```
    /// - Throws: `Realm.Error` as `Realm(configuration:)` does.
    public init<A: Actor>(configuration: Configuration = .defaultConfiguration, actor: isolated A) async throws {
        if (actor as AnyObject) === MainActor.shared {
            try self.init(configuration: configuration)
        } else {
            try self.init(configuration: configuration, confinement: .actor(ActorBinding(actor)))
        }
    }

    /// Opens a realm confined to the caller's isolation: the actor whose code calls it, or the
    /// main thread when called from the main actor.
    /// - Throws: `Realm.Error.wrongThread` from code not isolated to any actor (there is no
    ///   stable context to confine the realm to: use `Realm(configuration:actor:)` or
    ///   `Realm(configuration:queue:)`); otherwise as `Realm(configuration:)`.
    public static func open(
        configuration: Configuration = .defaultConfiguration, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Realm {
        guard let isolation else {
            throw Realm.Error(
                .wrongThread,
                "Realm.open needs an actor to confine the realm to: call it from an actor (or the main actor), or open the realm with Realm(configuration:actor:) or Realm(configuration:queue:)."
            )
        }
        if (isolation as AnyObject) === MainActor.shared {
            return try Realm(configuration: configuration)
        }
        return try Realm(configuration: configuration, confinement: .actor(ActorBinding(isolation)))
    }

    // MARK: invalidate

    /// Ends this realm's read transaction, so it no longer pins its version. Pending asynchronous
    /// writes finish first: queued blocks that have not started are dropped, commits already
    /// made become durable (this call waits for the disk) and their completions run. A write
    /// transaction in progress is cancelled. As in RealmSwift, objects obtained from the realm
    /// before the call are invalidated (`isInvalidated` is true; reading them is the "Object has
    /// been deleted or invalidated." violation); results stay usable and read the newest version
    /// on their next access.
    public func invalidate() {
        guard checkThread(), !isFrozen else { return }
        if isInWriteTransaction { cancelWrite() }
        realmState.asyncWrites?.finishForInvalidation()
        endRead()
        realmState.invalidations &+= 1
        stamp &+= 1
    }

    // MARK: Helpers

    static let noSchedulerMessage =
        "Cannot schedule async transaction. Make sure you are running from inside a run loop. (A realm of a plain thread has nothing to run its write blocks on: use the main thread, a thread running its RunLoop, a serial queue with Realm(configuration:queue:), or an actor with Realm(configuration:actor:).)"

    /// The realm's asynchronous write queue, created on first use with the calling context's
    /// scheduler; nil (after reporting the misuse) when there is no scheduler or the realm
    /// cannot write.
    func asyncQueue(beginning: Bool) -> AsyncWriteQueue? {
        guard checkThread() else { return nil }
        if beginning {
            do {
                try checkCanBeginWrite()
            } catch {
                return Realm.violation("\(error)", fallback: nil)
            }
        }
        if let queue = realmState.asyncWrites { return queue }
        guard let scheduler = AsyncScheduler.current(for: realmState) else {
            return Realm.violation(Self.noSchedulerMessage, fallback: nil)
        }
        let queue = AsyncWriteQueue(realmState: realmState, scheduler: scheduler)
        realmState.asyncWrites = queue
        return queue
    }

    /// Throws when this realm cannot begin writes at all (frozen, read-only).
    func checkCanBeginWrite() throws {
        guard !isFrozen else {
            throw Realm.Error(
                .frozen,
                "Can't perform transactions on a frozen Realm ('\(file.path)'). Call thaw() to get the live realm, and write there.",
                path: file.path)
        }
        guard !configuration.readOnly else {
            throw Realm.Error(
                .readOnly,
                "Can't perform transactions on read-only Realms (\(file.path)). Open it without readOnly to write.",
                path: file.path)
        }
        // Nothing is written on top of damage a read of this process found.
        try throwIfDamaged()
    }

    /// Makes `txn` (which holds the write lock) this realm's write transaction.
    func install(_ txn: WriteTransaction) {
        endRead()
        let store = StoreTransaction(write: txn)
        file.prepare(store)
        store.changeRecorder = file.changeRecorderIfObserved()
        writeTxn = store
        pendingError = nil
        stamp &+= 1
    }
}
