import Foundation
import Strata
import StrataCore

// The download and listen loops (Docs/Sync.md, "Download").
extension SyncEngine {
    /// A download pass applied whose snapshot end the position has not reached yet.
    struct PendingPass {
        var pass: UInt64
        var end: UInt64
        /// The subscription version the pass read by.
        var version: UInt64
        var applied = DispatchTime.now()

        /// Whether the replica holds everything committed when the pass began, or waited
        /// 5 s for it (a server transaction left open would hold every wait).
        func isCovered(at position: UInt64, now: DispatchTime) -> Bool {
            end <= position || applied.uptimeNanoseconds + 5_000_000_000 < now.uptimeNanoseconds
        }
    }

    /// Applies a download pass in one local commit, which also stores the new position and the
    /// subscription version the pass read by.
    func apply(_ d: SyncServerLink.Download, position: UInt64, subscriptionVersion: UInt64) async throws {
        let tables = self.tables
        try await onWorker { realm in
            try self.syncWrite(realm) { txn in
                let c = try self.ensureClock(txn)
                for t in d.tombstones {
                    guard let table = tables[t.table] else { continue }
                    c.observe(t.clock)
                    try self.applyRemote(txn, table, key: t.key, write: nil, delete: t.clock)
                }
                for r in d.rows {
                    guard let table = tables[r.table] else { continue }
                    for f in r.fields.values { c.observe(f.clock) }
                    try self.applyRemote(txn, table, key: r.key, write: r.fields, delete: nil)
                }
                for l in d.leaving {
                    guard let table = tables[l.table] else { continue }
                    try self.removeLocally(txn, table, key: l.key)
                }
                try self.resolveWaitingLinks(txn)
                try SyncLocalStore.setMeta(txn, "pos", position)
                try SyncLocalStore.setMeta(txn, "subv", subscriptionVersion)
                try SyncLocalStore.setMeta(txn, "hlc", c.lastTime)
            }
        }
    }

    func downloadLoop(_ gen: Int) async {
        var link: SyncServerLink?
        var attempt = 0
        var newSetPending = false
        // Passes whose snapshot's end the position has not reached yet, with the subscription
        // version each read by: a transaction still running when a pass began holds the
        // position below transactions that had committed, so that pass does not yet hold
        // everything committed before it began, which is what `wait(for: .download)` promises.
        // A server transaction that runs for longer than 5 s (a session left idle in a
        // transaction) would hold every wait: after that long, a pass counts as it did before
        // (applied), and what committed behind that transaction arrives with later passes.
        var uncovered: [PendingPass] = []
        while isCurrent(gen) {
            await downloadSignal.wait(timeout: 10)
            guard isCurrent(gen) else { break }
            let pass = lock.withLock {
                passesStarted += 1
                return passesStarted
            }
            do {
                trace("download pass \(pass): connecting")
                if link == nil { link = try await connect() }
                trace("download pass \(pass): reading the position")
                let (position, list, applied) = try await onWorker {
                    realm -> (UInt64, SyncSubscriptionList, UInt64) in
                    realm.refresh()
                    let txn = realm._storeTransaction
                    return (
                        try SyncLocalStore.meta(txn, "pos") ?? 0, try SyncSubscriptionList.read(txn),
                        try SyncLocalStore.meta(txn, "subv") ?? 0
                    )
                }
                // A new subscription set reads every row again: objects it newly matches
                // download, objects it no longer matches leave.
                let newSet = list.version != applied
                newSetPending = newSet
                let conditions = try list.conditions(tables)
                let from = newSet ? 0 : position
                trace("download pass \(pass): from \(from), subscriptions v\(list.version)")
                let bytesBefore = link!.bytesRead
                // This replica's uploads of new objects need not come back (a pass that reads a
                // new subscription set from the start reads them: they may have left the device).
                let skipping = newSet ? [] : lock.withLock { ownNewRows.filter { $0 >= from }.sorted() }
                let d = try await link!.download(
                    from: from, tables: tables.values.filter { !$0.isAsymmetric }, conditions: conditions,
                    skipping: skipping)
                let passBytes = link!.bytesRead - bytesBefore
                lock.withLock { rowsDownloadedValue += d.rows.count }
                trace(
                    "download pass \(pass): \(d.rows.count) rows, \(d.leaving.count) leaving, \(d.tombstones.count) tombstones, next \(d.next)"
                )
                let reached = max(position, d.next)
                if d.next != position || newSet {
                    try await apply(d, position: reached, subscriptionVersion: list.version)
                }
                lock.withLock { ownNewRows = ownNewRows.filter { $0 >= reached } }
                if newSet { lock.withLock { subscriptionError = nil } }
                newSetPending = false
                attempt = 0
                uncovered.append(PendingPass(pass: pass, end: d.end, version: list.version))
                let now = DispatchTime.now()
                let covered = uncovered.filter { $0.isCovered(at: reached, now: now) }
                uncovered.removeAll { $0.isCovered(at: reached, now: now) }
                if let last = covered.last {
                    subscriptionVersions.advance(to: last.version)
                    completePass(last.pass)
                }
                progress.downloaded(passBytes, pass: pass)
                if !uncovered.isEmpty && (downloads.hasWaiters || subscriptionVersions.hasWaiters) {
                    // Someone waits for what a running server transaction holds back: look
                    // again soon rather than at the next notification or the timer.
                    try? await Task.sleep(nanoseconds: 25_000_000)
                    downloadSignal.fire()
                }
            } catch {
                trace("download: \(error)")
                if newSetPending, let e = error as? SyncError,
                    e.code == .invalidSubscription
                        || (e.sqlState.map { $0.hasPrefix("42") || $0.hasPrefix("22") } ?? false)
                {
                    lock.withLock { subscriptionError = e }
                    subscriptionVersions.failAll(e)
                    // Every pass reads by the new set until it is replaced: download waits
                    // would never end.
                    downloads.failAll(e)
                }
                report(error, gen)
                if let l = link { await drop(l) }
                link = nil
                attempt += 1
                await backoff(attempt)
                downloadSignal.fire()
            }
        }
        trace("download loop ends")
        if let l = link { await drop(l) }
    }

    func listenLoop(_ gen: Int) async {
        var attempt = 0
        while isCurrent(gen) {
            var link: SyncServerLink?
            do {
                trace("listen: connecting")
                link = try await connect()
                trace("listen: LISTEN")
                try await link!.connection.listen(on: "strata_changes") { notifications in
                    // Listening now: whatever committed before is caught up by one pass.
                    trace("listen: listening")
                    downloadSignal.fire()
                    for try await _ in notifications {
                        guard isCurrent(gen) else { break }
                        downloadSignal.fire()
                    }
                }
            } catch {
                trace("listen: \(error)")
                report(error, gen)
            }
            if let l = link { await drop(l) }
            attempt += 1
            if isCurrent(gen) { await backoff(attempt) }
        }
        trace("listen loop ends")
    }
}
