import Foundation
import Observation
import Strata

/// What ``AsyncOpen`` and ``AutoOpen`` keep: the state of one open, observable (a read of
/// `state` inside `withObservationTracking`, or a SwiftUI body, is told when it changes).
///
/// The open runs on the main actor once the wrapped value is first read: the realm opens there
/// (`Realm(configuration:)`, which starts its session), the download's progress is published as
/// `.progress`, and the wait for the server's data ends at the first error the session reports
/// (RealmSwift's wrappers cancel their open on non-fatal errors too) or, when a timeout is
/// given, if no connection was established within it.
@MainActor
final class AsyncOpenStorage: Observable {
    /// Which wrapper: ``AutoOpen`` shows the local realm where ``AsyncOpen`` shows the error.
    enum Kind {
        case asyncOpen, autoOpen
    }

    private let registrar = ObservationRegistrar()
    private let kind: Kind
    private let configuration: Realm.Configuration
    private let timeout: UInt?
    private var current: AsyncOpenState = .connecting
    private var task: Task<Void, Never>?
    private var started = false
    /// Set by `cancel()`: nothing is published after it (a progress report already queued
    /// included).
    private var cancelled = false
    private var progressToken: ProgressNotificationToken?

    init(kind: Kind, configuration: Realm.Configuration, timeout: UInt?) {
        self.kind = kind
        self.configuration = configuration
        self.timeout = timeout
    }

    /// The current state.
    var state: AsyncOpenState {
        registrar.access(self, keyPath: \.state)
        return current
    }

    private func publish(_ state: AsyncOpenState) {
        guard !cancelled else { return }
        registrar.withMutation(of: self, keyPath: \.state) { current = state }
    }

    /// Starts the open, the first time only.
    func startOnce() {
        guard !started else { return }
        started = true
        task = Task { [weak self] in await self?.open() }
    }

    /// Stops the open: the state stays as it is.
    func cancel() {
        cancelled = true
        task?.cancel()
        progressToken?.invalidate()
        progressToken = nil
    }

    private func open() async {
        guard configuration.syncConfiguration != nil else {
            publish(
                .error(
                    SyncError(
                        .local,
                        "@AsyncOpen and @AutoOpen open a synced realm, and this configuration has no syncConfiguration: set one (SyncConfiguration(host:port:database:user:...)), or open the realm with Realm(configuration:)."
                    )))
            return
        }
        let realm: Realm
        do {
            realm = try Realm(configuration: configuration)
        } catch {
            publish(.error(error))
            return
        }
        guard let session = realm.syncSession, let engine = session.engine else {
            publish(.open(realm))
            return
        }
        let errorsBefore = engine.reportedErrors.count
        progressToken = session.addProgressNotification(for: .download, mode: .forCurrentlyOutstandingWork) {
            [weak self] p in
            Task { @MainActor in self?.progressed(p) }
        }
        do {
            try await Self.waitForDownload(session, engine, errorsBefore: errorsBefore, timeout: timeout)
            progressToken?.invalidate()
            progressToken = nil
            guard !Task.isCancelled else { return }
            realm.refresh()
            publish(.open(realm))
        } catch {
            progressToken?.invalidate()
            progressToken = nil
            guard !Task.isCancelled else { return }
            switch kind {
            case .asyncOpen: publish(.error(error))
            // Offline first: the file as it is; its session keeps trying in the background.
            case .autoOpen: publish(.open(realm))
            }
        }
    }

    private func progressed(_ p: SyncSession.Progress) {
        switch current {
        case .connecting, .progress:
            let progress = Progress(totalUnitCount: Int64(p.transferrableBytes))
            progress.completedUnitCount = Int64(p.transferredBytes)
            publish(.progress(progress))
        default:
            break
        }
    }

    /// Waits for the server's data, or throws the first error the session reports after
    /// `errorsBefore`, or a timeout error when no connection was established within `timeout`
    /// milliseconds.
    private nonisolated static func waitForDownload(
        _ session: SyncSession, _ engine: SyncEngine, errorsBefore: Int, timeout: UInt?
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await session.wait(for: .download) }
            group.addTask {
                let start = ContinuousClock.now
                var connected = false
                while true {
                    try await Task.sleep(for: .milliseconds(25))
                    let (count, last) = engine.reportedErrors
                    if count > errorsBefore, let last { throw last }
                    if engine.connectionState == .connected { connected = true }
                    if let timeout, !connected, ContinuousClock.now - start > .milliseconds(Int(timeout)) {
                        throw SyncError(
                            .connection,
                            "No connection to the server within the \(timeout) ms timeout: check that PostgreSQL runs at the configuration's host and port, or give a longer timeout."
                        )
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
