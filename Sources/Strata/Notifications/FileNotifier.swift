import Foundation
internal import StrataCore
internal import StrataStorage

/// Computes change notifications for one open file, off the observers' threads.
///
/// One background thread per file with observers. It wakes when a realm of this process commits
/// (`committed`), when an observer is added, and when another process publishes a commit: it
/// sleeps in a ``CommitWatcher``, which committers of every process wake while it exists
/// (FORMAT.md, "lock file": change notifications). Where the system cannot watch the lock file
/// (or the watcher cannot be made) it looks at the published version every `pollInterval`
/// instead; with a watcher it still looks every `watchedPollInterval`, for commits of processes
/// that do not wake watchers. Each wake is a *round*: it opens the newest version,
/// works out what changed since the version it processed last (from the commits' change
/// records, or by comparing the two versions when a commit has none), lets every observer
/// compute its change set, and hands the finished change sets to the observers' schedulers,
/// together with the version they describe, to which their realms move before the callbacks run.
///
/// Commits that land between two rounds are coalesced into one change set. A commit made with
/// `withoutNotifying:` gets rounds of its own, ending just before and just after it, so that the
/// skipped observers take in its changes silently while other commits still reach them.
///
/// ## Concurrency
/// Thread-safe: the registry, the change records and the wake flag are guarded by `condition`;
/// the round state (`baseline`, the entries' computed state) belongs to the notifier thread.
final class FileNotifier: @unchecked Sendable {
    /// How often the thread looks for commits of other processes while there are observers.
    nonisolated(unsafe) static var pollInterval: TimeInterval = 0.001
    /// How often the thread looks for commits while it sleeps in a commit watcher.
    static let watchedPollInterval: TimeInterval = 0.25
    /// The most change records kept for rounds not yet run; past it the oldest are dropped and
    /// their rounds compare versions instead (a commit storm while the thread is starved).
    static let maximumRecords = 4096
    /// When set, commits' records are dropped and every round compares versions, as for commits
    /// of other processes (tests check that path with it).
    nonisolated(unsafe) static var ignoresRecords = false

    /// Weak: the notifier lives in a registry by file, and must not keep the file open. While it
    /// has observers its baseline snapshot retains the file.
    private weak var file: RealmFile?
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var entries: [ObjectIdentifier: NotifierEntry] = [:]
    private var records: [UInt64: CommitChanges] = [:]
    private var silent: [UInt64: SilentCommit] = [:]
    private var pinned: [UInt64: PinnedSnapshot] = [:]
    private var wakeRequested = false
    /// Where the thread sleeps between rounds (nil: it polls). Made when the thread starts,
    /// closed by the thread when it ends.
    private var watcher: CommitWatcher?
    private var threadRunning = false
    private var active = false
    /// While set, no round runs (tests use it to make commits land between two rounds).
    private var paused = false
    private var inRound = false
    /// Rounds run so far (tests wait on it).
    private(set) var roundCount = 0

    // The notifier thread's (set by `add` before the thread starts).
    private var baseline: (snapshot: PinnedSnapshot, txn: StoreTransaction)?

    struct SilentCommit {
        let skipped: Set<ObjectIdentifier>
    }

    init(file: RealmFile) {
        self.file = file
    }

    /// Whether commits of this process should record their changes (someone observes the file).
    var wantsRecords: Bool {
        condition.lock()
        defer { condition.unlock() }
        return active
    }

    /// Wakes the thread (with `condition` held).
    private func wakeLocked() {
        condition.signal()
        watcher?.wake()
    }

    // MARK: Registration

    func add(_ entry: NotifierEntry) {
        condition.lock()
        entries[entry.id] = entry
        active = true
        wakeRequested = true
        if !threadRunning {
            threadRunning = true
            // The first round compares against the version current at registration, so a
            // commit right after `observe` returns is reported.
            if let file, let read = try? file.db.beginRead() {
                let snapshot = PinnedSnapshot(read: read, file: file)
                let txn = StoreTransaction(read: read)
                file.prepare(txn)
                baseline = (snapshot, txn)
            }
            watcher = try? file?.db.makeCommitWatcher()
            let thread = Thread { [self] in run() }
            // At most 15 characters: Linux drops longer thread names.
            thread.name = "strata.notifier"
            thread.start()
        }
        wakeLocked()
        condition.unlock()
    }

    func remove(_ id: ObjectIdentifier) {
        condition.lock()
        let removed = entries.removeValue(forKey: id)
        if entries.isEmpty { active = false }
        wakeLocked()
        condition.unlock()
        _ = removed  // released outside the lock: its blocks may own realms
    }

    // MARK: Commits of this process

    /// Called after a commit of this process was published, with the record of what it changed
    /// (nil when it recorded nothing).
    func committed(_ record: CommitChanges?, version: UInt64) {
        condition.lock()
        if active, let record, record.isComplete, !Self.ignoresRecords {
            record.version = version
            records[version] = record
            if records.count > Self.maximumRecords, let oldest = records.keys.min() { records[oldest] = nil }
        }
        wakeRequested = true
        wakeLocked()
        condition.unlock()
    }

    /// Called before a commit of this process that will create `version` (its writer lock held),
    /// with the record of what it changes: a round that the commit's publication wakes before
    /// ``committed(_:version:)`` runs (other processes' watchers and this one's wake alike) then
    /// finds the record instead of comparing versions.
    func expectCommit(_ record: CommitChanges, version: UInt64) {
        condition.lock()
        if active, record.isComplete, !Self.ignoresRecords {
            record.version = version
            records[version] = record
            if records.count > Self.maximumRecords, let oldest = records.keys.min() { records[oldest] = nil }
        }
        condition.unlock()
    }

    /// The commit announced with ``expectCommit(_:version:)`` failed: forget its record (another
    /// commit may create that version).
    func cancelExpectedCommit(_ version: UInt64) {
        condition.lock()
        records[version] = nil
        condition.unlock()
    }

    /// Called before a commit that skips `tokens` and will create `version`, while its writer
    /// lock is held (so the newest version is the one just before it). Pins that version, so a
    /// round can end there and the skipped observers take in exactly this commit silently.
    func prepareSilentCommit(_ version: UInt64, file: RealmFile, skipping tokens: [NotificationToken]) -> UInt64 {
        let before = try? PinnedSnapshot(read: file.db.beginRead(), file: file)
        condition.lock()
        if active {
            silent[version] = SilentCommit(skipped: Set(tokens.map { ObjectIdentifier($0) }))
            if let before, before.read.version.rawValue == version - 1 { pinned[version - 1] = before }
        }
        condition.unlock()
        return version
    }

    /// Called right after the silent commit: pins the version it created, so that later
    /// commits landing before the next round are reported in a round of their own.
    func finishSilentCommit(_ version: UInt64, file: RealmFile) {
        guard let after = try? PinnedSnapshot(read: file.db.beginRead(), file: file),
            after.read.version.rawValue == version
        else { return }
        condition.lock()
        if active, silent[version] != nil { pinned[version] = after }
        condition.unlock()
    }

    /// The silent commit failed: forget it.
    func cancelSilentCommit(_ version: UInt64) {
        condition.lock()
        silent[version] = nil
        pinned[version - 1] = nil
        condition.unlock()
    }

    // MARK: The thread

    private func run() {
        while true {
            condition.lock()
            while entries.isEmpty {
                // No observers: drop what pins the file, and let the thread end.
                records = [:]
                silent = [:]
                pinned = [:]
                baseline = nil
                threadRunning = false
                let finished = watcher
                watcher = nil
                condition.unlock()
                finished?.close()
                return
            }
            if !wakeRequested || paused {
                if let watcher {
                    // A wake between the unlock and the wait is kept by the watcher: the wait
                    // then returns at once. (The timeout is read under the lock.)
                    let timeout = paused ? Self.pollInterval : Self.watchedPollInterval
                    condition.unlock()
                    watcher.wait(timeout: timeout)
                    condition.lock()
                } else {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Self.pollInterval))
                }
            }
            if paused { condition.unlock(); continue }
            let woken = wakeRequested
            wakeRequested = false
            let current = Array(entries.values)
            inRound = true
            condition.unlock()
            guard let file else {
                // The file closed: nothing is left to observe.
                condition.lock()
                inRound = false
                entries = [:]
                active = false
                condition.unlock()
                continue
            }
            let latest = file.db.latestVersion.rawValue
            let processed = baseline?.snapshot.read.version.rawValue
            let needsInitial = current.contains { $0.needsInitial }
            if !woken, processed == latest, !needsInitial {
                condition.lock()
                inRound = false
                condition.broadcast()
                condition.unlock()
                continue
            }
            round(current, latest: latest, file: file)
            condition.lock()
            inRound = false
            roundCount += 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Stops running rounds until `resume()` (tests).
    func pause() {
        condition.lock()
        paused = true
        while inRound { condition.wait() }
        condition.unlock()
    }

    /// Runs rounds again.
    func resume() {
        condition.lock()
        paused = false
        wakeRequested = true
        wakeLocked()
        condition.unlock()
    }

    /// Waits until a round that started after this call finished (tests).
    func waitForRound(timeout: TimeInterval = 5) {
        condition.lock()
        let target = roundCount + (inRound ? 2 : 1)
        wakeRequested = true
        wakeLocked()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while roundCount < target, threadRunning {
            if !condition.wait(until: deadline) { break }
        }
        condition.unlock()
    }

    private func round(_ current: [NotifierEntry], latest: UInt64, file: RealmFile) {
        let processed = baseline?.snapshot.read.version.rawValue
        // The version this round moves to: the newest, unless a silent commit's snapshots come
        // first (its rounds end just before and just after it).
        var snapshot: PinnedSnapshot
        condition.lock()
        let stop = pinned.keys.filter { $0 > (processed ?? 0) && $0 <= latest }.min()
        let pinnedStop = stop.flatMap { pinned[$0] }
        condition.unlock()
        if let pinnedStop {
            snapshot = pinnedStop
        } else {
            do {
                snapshot = PinnedSnapshot(read: try file.db.beginRead(), file: file)
            } catch {
                deliverError(current, error)
                return
            }
        }
        var version = snapshot.read.version.rawValue
        if let p = processed, version < p {
            // A silent commit's snapshot older than what is processed: nothing to move to.
            snapshot = baseline!.snapshot
            version = p
        }
        let txn = StoreTransaction(read: snapshot.read)
        file.prepare(txn)

        // The changes since the processed version: records of every commit in between, or none.
        var span: ChangeSpan
        condition.lock()
        if let p = processed, version > p {
            var list: [CommitChanges] = []
            var complete = true
            for v in (p + 1)...version {
                if let r = records[v] { list.append(r) } else { complete = false; break }
            }
            let skipped = (version == p + 1) ? silent[version]?.skipped ?? [] : []
            span = ChangeSpan(old: baseline?.txn, new: txn, records: complete ? list : nil, skipped: skipped)
        } else {
            span = ChangeSpan(old: baseline?.txn, new: txn, records: [], skipped: [])
        }
        // Records and snapshots this round used up.
        for v in records.keys where v <= version { records[v] = nil }
        for v in silent.keys where v <= version { silent[v] = nil }
        for v in pinned.keys where v <= version { pinned[v] = nil }
        condition.unlock()

        let moved = processed.map { version > $0 } ?? false
        var byTarget: [ObjectIdentifier: (target: DeliveryTarget, jobs: [NotificationJob])] = [:]
        for entry in current where !entry.isInvalidated {
            let job: NotificationJob?
            do {
                if entry.needsInitial {
                    job = try entry.initial(in: txn)
                    entry.needsInitial = false
                } else if moved {
                    let silentForEntry = span.skipped.contains(entry.id)
                    job = try entry.update(span, silently: silentForEntry)
                    if silentForEntry { continue }
                } else {
                    job = nil
                }
            } catch {
                job = entry.errorJob(error)
            }
            guard let job else { continue }
            let key = entry.target.key
            byTarget[key, default: (entry.target, [])].jobs.append(job)
        }
        baseline = (snapshot, txn)
        for (_, group) in byTarget {
            group.target.deliver(group.jobs, at: snapshot)
        }
    }

    private func deliverError(_ current: [NotifierEntry], _ error: Swift.Error) {
        for entry in current where !entry.isInvalidated {
            if let job = entry.errorJob(error) { entry.target.deliver([job], at: nil) }
        }
    }
}

/// A callback to run on an observer's context, with the realm it belongs to.
typealias NotificationJob = (Realm) -> Void
