import Foundation
import Strata

/// The sync of one realm file with the server: its state, waits for uploads and downloads, and
/// pausing. Get it from `realm.syncSession`.
///
/// ## Concurrency
/// Thread-safe: any thread may read its state, wait, suspend or resume.
public final class SyncSession: Sendable {
    /// Whether the session syncs.
    public enum State: Sendable, Equatable {
        /// Uploading and downloading (or retrying a lost connection).
        case active
        /// Stopped for good (the engine was shut down).
        case inactive
        /// Suspended by `suspend()`; `resume()` goes on.
        case paused
    }

    /// The state of the connection to the server.
    public enum ConnectionState: Sendable, Equatable {
        /// No connection to the server (suspended, or waiting to retry).
        case disconnected
        /// Opening a connection.
        case connecting
        /// Connected.
        case connected
    }

    /// What `wait(for:)` waits for.
    public enum ProgressDirection: Sendable, Equatable {
        /// Every local commit made before the wait is on the server.
        case upload
        /// The server's data at the time of the wait is in the local file.
        case download
    }

    private let engineBox: WeakEngine

    init(engine: SyncEngine) {
        engineBox = WeakEngine(engine)
    }

    var engine: SyncEngine? { engineBox.engine }

    /// Whether the session syncs now.
    public var state: State { engine?.state ?? .inactive }

    /// Whether the session is connected to the server.
    public var connectionState: ConnectionState { engine?.connectionState ?? .disconnected }

    /// The last error the session met (also given to `SyncConfiguration.errorHandler`), or nil.
    public var lastError: Error? { engine?.lastError }

    /// Stops syncing: connections close, local writes go on and queue in the outbox.
    public func suspend() {
        engine?.suspend()
    }

    /// RealmSwift's name for `suspend()`.
    public func pause() { suspend() }

    /// Syncs again after `suspend()`.
    public func resume() { engine?.start() }

    /// Returns once every local commit made before the call is on the server (`.upload`), or the
    /// server's data at the time of the call is in the local file (`.download`).
    /// - Throws: `SyncError` when the session stops or meets an error it cannot retry
    ///   (credentials, a schema mismatch) before the wait is over.
    public func wait(for direction: ProgressDirection) async throws {
        guard let e = engine else {
            throw SyncError(.connection, "The sync session is not active: resume() it before waiting.")
        }
        try await e.requireActive("waiting")
        switch direction {
        case .upload: try await e.waitForUpload()
        case .download: try await e.waitForDownload()
        }
    }
}
