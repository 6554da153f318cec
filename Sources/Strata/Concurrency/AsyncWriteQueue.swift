import Dispatch
import Foundation
internal import StrataCore
internal import StrataStorage

/// Identifies an asynchronous write transaction (`beginAsyncWrite`, `writeAsync`) or an
/// asynchronous commit (`commitAsyncWrite`), for `cancelAsyncWrite`.
public typealias AsyncTransactionId = UInt32

/// The asynchronous writes of one realm: the queue of write blocks waiting for the write lock,
/// the commits waiting to become durable, and the hand-off of the write lock between the
/// realm's own context and the background threads that wait for it.
///
/// How a write flows (ARCHITECTURE.md, runtime contracts):
/// 1. `writeAsync`/`beginAsyncWrite`/`asyncWrite` queue a request and schedule a drain on the
///    realm's scheduler; they never run the block before returning.
/// 2. A drain, on the realm's context, takes the write lock without waiting
///    (`Database.tryBeginWrite`); when another writer holds it, a background thread waits for
///    it (`Database.beginWrite`), parks the transaction here and schedules another drain.
/// 3. The block runs in that transaction on the realm's context. `commitAsyncWrite` commits
///    with `Durability.deferred` (the new version is visible at once; no `fdatasync` on the
///    caller's thread) and records the completion.
/// 4. A serial background queue per file calls `Database.sync()`; when it returns, the
///    completions of every commit it made durable run on the realm's context, in commit order.
///    With `allowGrouping`, commits keep going while more writes are queued (up to
///    `maximumGroupSize`), and one sync covers them all.
///
/// Synchronous `write`/`beginWrite` on the same realm use a transaction parked here (or wait for
/// the background thread about to park one) rather than waiting for the lock themselves, so a
/// realm never waits for a lock that it holds on its own behalf.
///
/// ## Concurrency
/// Confined to the realm's context except `parked`, `acquiring` and `acquireError`, which the
/// background threads set under `lock`.
final class AsyncWriteQueue {
    /// Commits grouped under one `fdatasync` at most. A group's sync holds back the realm's next
    /// write, so small groups leave the writer idle: `strata-bench async` on a fast disk measured
    /// 40-51k grouped commits/s with 256 and 50-53k/s with 1,024 (Docs/Performance.md). Larger
    /// groups make completions wait longer; per-commit storage cost no longer grows with them.
    static let maximumGroupSize = 1024
    /// Write blocks one drain runs before it yields the thread (re-scheduling itself), so a long
    /// queue does not starve the rest of the realm's thread or queue.
    static let maximumBlocksPerDrain = 128

    unowned let realmState: RealmState
    let scheduler: AsyncScheduler

    enum Work {
        /// A `writeAsync` (commits on return) or `beginAsyncWrite` (rolls back on return) block.
        case block(
            () -> Void, commitsOnReturn: Bool, onComplete: ((Swift.Error?) -> Void)?, skipping: [NotificationToken] = []
        )
        /// An `asyncWrite` task waiting for the write lock.
        case task(WriteTicket)
    }

    struct Request {
        let id: AsyncTransactionId
        let work: Work
    }

    struct PendingCommit {
        let id: AsyncTransactionId
        let version: UInt64
        var onComplete: ((Swift.Error?) -> Void)?
    }

    // Confined state.
    private var requests: [Request] = []
    private var head = 0
    private var nextID: AsyncTransactionId = 0
    /// The id of the `writeAsync`/`beginAsyncWrite` block running now.
    private(set) var running: AsyncTransactionId?
    private var runningCancelled = false
    /// The last commit the running block made (a `writeAsync` completion follows it).
    private var committedInBlock: AsyncTransactionId?
    private var pending: [PendingCommit] = []
    private var groupSize = 0
    private var syncsInFlight = 0
    /// The version of an ungrouped commit (or of a group's last commit) whose sync runs: no new
    /// write of this realm starts before that version is durable, so it is not grouped with the
    /// commits after it.
    private var barrier: UInt64?
    private var drainScheduled = false
    /// True while commit completions run: beginning or committing a write there is an error.
    private var completing = false
    var inCompletion: Bool { confined { completing } }
    /// An `asyncWrite` task that was granted the parked transaction and has not resumed yet.
    private var reservation: WriteTicket?
    /// Set when a synchronous write took the transaction reserved for `reservation`.
    private var reservationStolen = false

    /// Held by every entry point on the realm's context. Only one context uses a realm, so it is
    /// never contended; it makes the context's own serialisation explicit to ThreadSanitizer,
    /// which does not see the ordering of an actor's jobs when they run on different threads.
    /// Recursive: write blocks and completions run under it and call back in.
    private let confinement = NSRecursiveLock()

    @inline(__always)
    private func confined<T>(_ body: () throws -> T) rethrows -> T {
        confinement.lock()
        defer { confinement.unlock() }
        return try body()
    }

    // Shared with background threads.
    private let lock = NSCondition()
    private var parked: WriteTransaction?
    private var acquiring = false
    private var acquireError: Swift.Error?

    init(realmState: RealmState, scheduler: AsyncScheduler) {
        self.realmState = realmState
        self.scheduler = scheduler
    }

    deinit {
        lock.lock()
        let p = parked
        parked = nil
        lock.unlock()
        p?.abort()
    }

    private var db: Database { realmState.file.db }

    // MARK: State

    /// Whether any asynchronous write of this realm is queued, running, or waiting to become
    /// durable (`isPerformingAsynchronousWriteOperations`).
    var isBusy: Bool {
        confinement.lock()
        defer { confinement.unlock() }
        // A sync still in flight after every commit it was for completed (another sync covered
        // them) is not the caller's work any more; it still keeps the realm alive until it ends.
        if head < requests.count || running != nil || reservation != nil || !pending.isEmpty {
            return true
        }
        lock.lock()
        defer { lock.unlock() }
        return acquiring || parked != nil
    }

    func makeID() -> AsyncTransactionId {
        nextID &+= 1
        if nextID == 0 { nextID = 1 }
        return nextID
    }

    // MARK: Queue

    func enqueue(_ work: Work, atFront: Bool = false) -> AsyncTransactionId {
        confinement.lock()
        defer { confinement.unlock() }
        let id = makeID()
        let request = Request(id: id, work: work)
        if atFront {
            if head > 0 {
                head -= 1
                requests[head] = request
            } else {
                requests.insert(request, at: 0)
            }
        } else {
            requests.append(request)
        }
        scheduleDrain()
        return id
    }

    /// Whether the next queued request is a write block (which the drain runs next).
    private var nextIsBlock: Bool {
        guard head < requests.count, case .block = requests[head].work else { return false }
        return true
    }

    private func popFirst() {
        head += 1
        if head == requests.count {
            requests.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= requests.count {
            requests.removeFirst(head)
            head = 0
        }
    }

    /// Runs a drain on the realm's context soon (once, however often it is asked).
    func scheduleDrain() {
        if drainScheduled { return }
        drainScheduled = true
        let realmState = self.realmState
        scheduler.schedule { realmState.asyncWrites?.drain() }
    }

    // MARK: The write lock

    private enum Lock {
        case acquired(WriteTransaction)
        case waiting
        case failed(Swift.Error)
    }

    /// The write lock for the next request: the parked transaction, or the lock if it is free
    /// now; otherwise a background thread starts waiting for it.
    private func takeLock() -> Lock {
        lock.lock()
        defer { lock.unlock() }
        if let p = parked {
            parked = nil
            return .acquired(p)
        }
        if acquiring { return .waiting }
        if let e = acquireError {
            acquireError = nil
            return .failed(e)
        }
        do {
            if let w = try db.tryBeginWrite() { return .acquired(w) }
        } catch {
            return .failed(error)
        }
        acquiring = true
        // The closures hold the realm's state strongly: pending work keeps the realm open.
        let realmState = UncheckedBox(self.realmState)
        let db = self.db
        let scheduler = self.scheduler
        let box = UncheckedBox(self)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try db.beginWrite() }
            let queue = box.value
            queue.lock.lock()
            queue.acquiring = false
            switch result {
            case .success(let w): queue.parked = w
            case .failure(let e): queue.acquireError = e
            }
            queue.lock.broadcast()
            queue.lock.unlock()
            let delivered = scheduler.schedule { realmState.value.asyncWrites?.drain() }
            if !delivered { queue.releaseParked() }
        }
        return .waiting
    }

    private func park(_ txn: WriteTransaction) {
        lock.lock()
        precondition(parked == nil, "two write transactions parked for one realm")
        parked = txn
        lock.unlock()
    }

    /// Whether a write transaction is parked for this realm's next asynchronous write (the
    /// file's write lock is held for it).
    var holdsParkedTransaction: Bool {
        lock.lock()
        defer { lock.unlock() }
        return parked != nil
    }

    /// Gives up a parked transaction nobody is going to use (releasing the write lock).
    private func releaseParked() {
        lock.lock()
        let p = parked
        parked = nil
        lock.unlock()
        p?.abort()
    }

    /// For a synchronous `beginWrite` on this realm: the transaction parked for it (waiting
    /// for the background thread that is about to park one), or nil to take the lock directly.
    /// Time spent waiting here is the time any writer waits for the lock.
    func takeForSynchronousWrite() -> WriteTransaction? {
        confinement.lock()
        defer { confinement.unlock() }
        lock.lock()
        while acquiring { lock.wait() }
        let p = parked
        parked = nil
        let error = acquireError
        acquireError = nil
        lock.unlock()
        if p != nil, reservation != nil { reservationStolen = true }
        if error != nil { scheduleDrain() }
        return p
    }

    // MARK: Drain

    /// Runs queued requests while the write lock can be had without waiting.
    func drain() {
        confinement.lock()
        defer { confinement.unlock() }
        drainScheduled = false
        fireDurableCompletions(upTo: db.durableVersion.rawValue, error: nil)
        var ran = 0
        var yielded = false
        loop: while head < requests.count {
            if realmState.writeTxn != nil || running != nil || reservation != nil || barrier != nil { break }
            let request = requests[head]
            if case .task(let ticket) = request.work, ticket.isCancelled {
                popFirst()
                continue
            }
            let txn: WriteTransaction
            switch takeLock() {
            case .acquired(let w): txn = w
            case .waiting: break loop
            case .failed(let error):
                failQueued(Realm.Error(storage: error, path: realmState.file.path))
                break loop
            }
            popFirst()
            switch request.work {
            case .task(let ticket):
                park(txn)
                reservation = ticket
                reservationStolen = false
                if !ticket.grant() {
                    // Cancelled meanwhile: the next request gets the lock.
                    reservation = nil
                    continue
                }
                break loop
            case .block(let body, let commitsOnReturn, let onComplete, let skipping):
                runBlock(
                    request.id, body, txn, commitsOnReturn: commitsOnReturn, onComplete: onComplete, skipping: skipping)
            }
            ran += 1
            if ran >= Self.maximumBlocksPerDrain && head < requests.count {
                scheduleDrain()
                yielded = true
                break
            }
        }
        if head >= requests.count || barrier != nil || yielded, reservation == nil {
            releaseParked()
        }
        // End of a group: nothing more can join it right now (after yielding the thread, the
        // queued writes join it on the next drain).
        if groupSize > 0, !yielded, realmState.writeTxn == nil, running == nil, reservation == nil, barrier == nil {
            requestSync()
        }
    }

    private func runBlock(
        _ id: AsyncTransactionId, _ body: () -> Void, _ txn: WriteTransaction,
        commitsOnReturn: Bool, onComplete: ((Swift.Error?) -> Void)?, skipping: [NotificationToken] = []
    ) {
        let realm = Realm(realmState: realmState)
        realm.install(txn)
        running = id
        runningCancelled = false
        committedInBlock = nil
        body()
        running = nil
        if realm.isInWriteTransaction {
            if commitsOnReturn && !runningCancelled {
                _ = commit(allowGrouping: false, onComplete: onComplete, skipping: skipping)
            } else {
                realm.cancelWrite()
                if commitsOnReturn { deliver(onComplete, nil) }
            }
        } else if commitsOnReturn, let onComplete {
            if let last = committedInBlock, let i = pending.firstIndex(where: { $0.id == last }) {
                let previous = pending[i].onComplete
                pending[i].onComplete = { error in
                    previous?(error)
                    onComplete(error)
                }
            } else {
                deliver(onComplete, nil)
            }
        }
        committedInBlock = nil
    }

    // MARK: Commit and durability

    /// Commits the realm's write transaction without waiting for the disk; `onComplete` runs on
    /// the realm's context once the commit is durable (or failed).
    func commit(
        allowGrouping: Bool, onComplete: ((Swift.Error?) -> Void)?, skipping: [NotificationToken] = []
    ) -> AsyncTransactionId {
        confinement.lock()
        defer { confinement.unlock() }
        let id = makeID()
        let realm = Realm(realmState: realmState)
        guard let txn = realmState.writeTxn else {
            return Realm.violation(
                "Can't commit a non-existing write transaction. Call beginWrite() or beginAsyncWrite() first.",
                fallback: id)
        }
        if let error = realmState.pendingError {
            realm.cancelWrite()
            deliver(onComplete, error)
            afterWrite()
            return id
        }
        // Inside a drain, with another queued block to join this group, keep the write lock for
        // it: the next transaction begins without unlocking and locking again.
        let continues = allowGrouping && running != nil && groupSize + 1 < Self.maximumGroupSize && nextIsBlock
        let version: UInt64
        var silent: UInt64?
        var expected: UInt64?
        do {
            try realmState.file.commitObserver?.willCommit(txn)
            silent = realm.prepareSilentCommit(txn, skipping: skipping)
            expected = realm.expectCommit(txn)
            if continues {
                let (v, next) = try txn.commitAndContinue(durability: .deferred)
                version = v.rawValue
                park(next)
            } else {
                version = try txn.commit(durability: .deferred).rawValue
            }
        } catch {
            realm.cancelExpectedCommit(expected)
            realm.cancelSilentCommit(silent)
            realmState.writeTxn = nil
            realmState.stamp &+= 1
            deliver(onComplete, Realm.Error(storage: error, path: realmState.file.path))
            afterWrite()
            return id
        }
        realmState.file.commitObserver?.didCommit()
        realm.finishSilentCommit(silent)
        realmState.writeTxn = nil
        realmState.stamp &+= 1
        realm.notifyAfterCommit(txn, version: version)
        pending.append(PendingCommit(id: id, version: version, onComplete: onComplete))
        if running != nil { committedInBlock = id }
        groupSize += 1
        if !allowGrouping || groupSize >= Self.maximumGroupSize {
            requestSync()
            barrier = version
        }
        afterWrite()
        return id
    }

    /// Called when a write of this realm ends: queued requests may go on, a group may close.
    func afterWrite() {
        confinement.lock()
        defer { confinement.unlock() }
        if running == nil { scheduleDrain() }
    }

    /// Makes this realm's deferred commits durable on the file's background sync queue.
    private func requestSync() {
        groupSize = 0
        syncsInFlight += 1
        let realmState = UncheckedBox(self.realmState)
        let db = self.db
        let scheduler = self.scheduler
        self.realmState.file.syncQueue.async {
            let result = Result { try db.sync().rawValue }
            scheduler.schedule { realmState.value.asyncWrites?.syncFinished(result) }
        }
    }

    private func syncFinished(_ result: Result<UInt64, Swift.Error>) {
        confinement.lock()
        defer { confinement.unlock() }
        syncsInFlight -= 1
        switch result {
        case .success(let durable):
            fireDurableCompletions(upTo: durable, error: nil)
        case .failure(let error):
            fireDurableCompletions(upTo: .max, error: Realm.Error(storage: error, path: realmState.file.path))
        }
    }

    /// Runs, in commit order, the completions of commits at or below `version`.
    private func fireDurableCompletions(upTo version: UInt64, error: Swift.Error?) {
        if let b = barrier, b <= version {
            barrier = nil
            scheduleDrain()
        }
        guard let first = pending.first, first.version <= version else { return }
        var done = 0
        while done < pending.count && pending[done].version <= version { done += 1 }
        let finished = pending[0..<done]
        pending.removeFirst(done)
        if groupSize > pending.count { groupSize = pending.count }
        completing = true
        for commit in finished { commit.onComplete?(error) }
        completing = false
    }

    /// Runs `onComplete` soon on the realm's context (never inside the caller's own call).
    private func deliver(_ onComplete: ((Swift.Error?) -> Void)?, _ error: Swift.Error?) {
        guard let onComplete else { return }
        let box = UncheckedBox(onComplete)
        let realmState = self.realmState
        scheduler.schedule {
            guard let queue = realmState.asyncWrites else { return box.value(error) }
            queue.confined {
                queue.completing = true
                box.value(error)
                queue.completing = false
            }
        }
    }

    private func failQueued(_ error: Realm.Error) {
        while head < requests.count {
            let request = requests[head]
            popFirst()
            switch request.work {
            case .task(let ticket): ticket.fail(error)
            case .block(_, _, let onComplete, _): deliver(onComplete, error)
            }
        }
    }

    // MARK: asyncWrite

    /// Called by a resumed `asyncWrite` task: the transaction granted to `ticket`, or nil if a
    /// synchronous write took it meanwhile (the task then asks again, first in line).
    func claim(_ ticket: WriteTicket) -> WriteTransaction? {
        confinement.lock()
        defer { confinement.unlock() }
        guard reservation === ticket else { return nil }
        reservation = nil
        if reservationStolen {
            reservationStolen = false
            return nil
        }
        lock.lock()
        let p = parked
        parked = nil
        lock.unlock()
        return p
    }

    /// Gives back a grant the task will not use (it was cancelled, or resumed on the wrong
    /// thread); the next request gets the lock.
    func unreserve(_ ticket: WriteTicket) {
        confinement.lock()
        defer { confinement.unlock() }
        guard reservation === ticket else { return }
        reservation = nil
        reservationStolen = false
        scheduleDrain()
    }

    // MARK: Cancel

    /// `cancelAsyncWrite`: drops a queued block, rolls back the running one, or forgets a
    /// commit's completion (the commit itself goes on). Unknown ids are ignored.
    func cancel(_ id: AsyncTransactionId) {
        confinement.lock()
        defer { confinement.unlock() }
        if let i = requests[head...].firstIndex(where: { $0.id == id }) {
            if case .block = requests[i].work {
                requests.remove(at: i)
                if head > requests.count { head = requests.count }
            }
            return
        }
        if running == id {
            runningCancelled = true
            let realm = Realm(realmState: realmState)
            if realm.isInWriteTransaction { realm.cancelWrite() }
            return
        }
        if let i = pending.firstIndex(where: { $0.id == id }) {
            pending[i].onComplete = nil
        }
    }

    // MARK: invalidate

    /// For `invalidate()`: drops queued blocks, gives up the write lock, makes pending commits
    /// durable now (blocking, as `invalidate` is documented to) and runs their completions.
    func finishForInvalidation() {
        confinement.lock()
        defer { confinement.unlock() }
        let error = Realm.Error(
            .fail,
            "The realm at '\(realmState.file.path)' was invalidated before this asynchronous write could take the write lock; nothing was written.",
            path: realmState.file.path)
        while head < requests.count {
            let request = requests[head]
            popFirst()
            if case .task(let ticket) = request.work { ticket.fail(error) }
        }
        // Give up the write lock held (or about to be held) for this realm, as a synchronous write
        // would take it.
        takeForSynchronousWrite()?.abort()
        if !pending.isEmpty {
            do {
                let durable = try db.sync().rawValue
                fireDurableCompletions(upTo: durable, error: nil)
            } catch {
                fireDurableCompletions(upTo: .max, error: Realm.Error(storage: error, path: realmState.file.path))
            }
        }
        groupSize = 0
        barrier = nil
    }
}
