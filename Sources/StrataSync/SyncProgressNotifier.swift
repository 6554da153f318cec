import Foundation

/// The progress notifications of one engine: it keeps the byte counts the loops report and
/// calls the registered blocks, in order, on a serial queue of its own.
///
/// Upload: `uploaded` counts the bytes of outbox entries the server took since the engine
/// started; `pending` the bytes waiting in the outbox when last measured. Download: `downloaded`
/// counts the bytes of the server's answers of every applied pass.
///
/// ## Concurrency
/// Thread-safe (a lock); blocks run on `queue`.
final class SyncProgressNotifier: @unchecked Sendable {
    private struct Listener {
        let direction: SyncSession.ProgressDirection
        let mode: SyncSession.ProgressMode
        let block: (SyncSession.Progress) -> Void
        /// `.forCurrentlyOutstandingWork`: the counter value to reach (upload), or the pass
        /// that must be applied (download), and where the counter stood at registration.
        let target: UInt64
        let base: UInt64
    }

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "io.strata.sync.progress")
    private var listeners: [Int: Listener] = [:]
    private var nextID = 0
    private var uploaded: UInt64 = 0
    private var pending: UInt64 = 0
    private var downloaded: UInt64 = 0
    private var passBytes: UInt64 = 0

    /// Whether an upload listener waits (the upload loop then measures the outbox).
    var wantsUpload: Bool { lock.withLock { listeners.values.contains { $0.direction == .upload } } }

    /// Registers `block`; `pendingNow` is the outbox's size now, `nextPass` the number of the
    /// first download pass that starts after this call.
    func add(
        _ direction: SyncSession.ProgressDirection, _ mode: SyncSession.ProgressMode,
        _ block: @escaping (SyncSession.Progress) -> Void, pendingNow: UInt64, nextPass: UInt64
    ) -> ProgressNotificationToken {
        let id: Int = lock.withLock {
            nextID += 1
            if direction == .upload { pending = pendingNow }
            let l: Listener
            switch direction {
            case .upload:
                l = Listener(direction: direction, mode: mode, block: block, target: uploaded + pending, base: uploaded)
            case .download:
                l = Listener(direction: direction, mode: mode, block: block, target: nextPass, base: downloaded)
            }
            let p = progress(l, pass: 0)
            // Work outstanding: none left is reported once, and nothing more follows.
            if !(mode == .forCurrentlyOutstandingWork && p.isTransferComplete) { listeners[nextID] = l }
            // Queued under the lock, so the first call comes before any later one.
            deliver([(nextID, l, p)])
            return nextID
        }
        return ProgressNotificationToken { [weak self] in self?.remove(id) }
    }

    private func remove(_ id: Int) { _ = lock.withLock { listeners.removeValue(forKey: id) } }

    /// The progress `l` sees now; `pass` is the download pass just applied (0: none).
    private func progress(_ l: Listener, pass: UInt64) -> SyncSession.Progress {
        switch (l.direction, l.mode) {
        case (.upload, .reportIndefinitely):
            return .init(transferredBytes: Int(uploaded), transferrableBytes: Int(uploaded + pending))
        case (.upload, .forCurrentlyOutstandingWork):
            let want = l.target - l.base
            return .init(transferredBytes: Int(min(uploaded - l.base, want)), transferrableBytes: Int(want))
        case (.download, .reportIndefinitely):
            return .init(transferredBytes: Int(downloaded), transferrableBytes: Int(downloaded))
        case (.download, .forCurrentlyOutstandingWork):
            // Done once a pass that started after registration is applied; until then the
            // size of what waits on the server is not known (one unit stands for it).
            let done = pass >= l.target
            let got = Int(downloaded - l.base)
            return .init(transferredBytes: got, transferrableBytes: done ? got : got + 1)
        }
    }

    /// The upload loop measured the outbox.
    func uploadPending(_ bytes: UInt64) {
        guard lock.withLock({ pending != bytes }) else { return }
        update(.upload, pass: 0) { pending = bytes }
    }

    /// The server took outbox entries of `bytes`; `bytesLeft` wait (nil: not measured, the
    /// last measure less `bytes`).
    func uploaded(_ bytes: UInt64, bytesLeft: UInt64?) {
        update(.upload, pass: 0) {
            uploaded += bytes
            pending = bytesLeft ?? (pending >= bytes ? pending - bytes : 0)
        }
    }

    /// Download pass `pass`, of `bytes`, was applied.
    func downloaded(_ bytes: UInt64, pass: UInt64) {
        update(.download, pass: pass) { downloaded += bytes }
    }

    private func update(_ direction: SyncSession.ProgressDirection, pass: UInt64, _ change: () -> Void) {
        lock.withLock {
            change()
            var out: [(Int, Listener, SyncSession.Progress)] = []
            for (id, l) in listeners where l.direction == direction {
                let p = progress(l, pass: pass)
                out.append((id, l, p))
                if l.mode == .forCurrentlyOutstandingWork && p.isTransferComplete { listeners[id] = nil }
            }
            // Queued under the lock, so calls reach the queue in the order the counts changed.
            deliver(out.sorted { $0.0 < $1.0 })
        }
    }

    private func deliver(_ calls: [(Int, Listener, SyncSession.Progress)]) {
        guard !calls.isEmpty else { return }
        nonisolated(unsafe) let calls = calls
        queue.async {
            for (_, l, p) in calls { l.block(p) }
        }
    }
}
