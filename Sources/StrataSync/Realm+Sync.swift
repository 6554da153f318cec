import Foundation
import Strata

extension Realm {
    /// The sync session of this realm's file, or nil for a realm that does not sync.
    public var syncSession: SyncSession? { SyncEngine.engine(path: _filePath)?.session }

    /// Opens a realm on the main actor; for a synced realm, with `.always` (or `.once` on a
    /// file that did not exist), first waits until the server's data is in the file.
    /// - Throws: `Realm.Error` as `Realm(configuration:)`, or `SyncError` when the server's data
    ///   could not be downloaded (bad credentials, a schema mismatch).
    @MainActor
    public init(
        configuration: Realm.Configuration = .defaultConfiguration, downloadBeforeOpen: OpenBehavior
    ) async throws {
        let existed = configuration.fileURL.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        self = try Realm(configuration: configuration)
        try await Self.download(syncSession, configuration, downloadBeforeOpen, existed: existed)
        refresh()
    }

    /// Opens a realm confined to `actor`; for a synced realm, with `.always` (or `.once` on a
    /// file that did not exist), first waits until the server's data is in the file.
    /// - Throws: as `init(configuration:downloadBeforeOpen:)`.
    public init<A: Actor>(
        configuration: Realm.Configuration = .defaultConfiguration, actor: isolated A, downloadBeforeOpen: OpenBehavior
    )
        async throws
    {
        let existed = configuration.fileURL.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        self = try await Realm(configuration: configuration, actor: actor)
        try await Self.download(syncSession, configuration, downloadBeforeOpen, existed: existed)
        refresh()
    }

    private static func download(
        _ session: SyncSession?, _ configuration: Realm.Configuration, _ behavior: OpenBehavior, existed: Bool
    ) async throws {
        guard configuration.syncConfiguration != nil, let session else { return }
        switch behavior {
        case .never: return
        case .once: if existed { return }
        case .always: break
        }
        try await session.wait(for: .download)
    }
}

extension Realm {
    /// The subscriptions of a synced realm: which objects it downloads (`SyncSubscriptionSet`).
    /// For a realm that does not sync, an empty set whose `update` throws.
    public var subscriptions: SyncSubscriptionSet { SyncSubscriptionSet(path: _filePath) }
}
