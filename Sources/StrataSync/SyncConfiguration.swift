import Foundation
import PostgresNIO
import Strata

/// How a realm syncs with PostgreSQL: the server, and who this replica is.
///
/// ```swift
/// var config = Realm.Configuration(fileURL: url, objectTypes: [Dog.self])
/// config.syncConfiguration = SyncConfiguration(
///     host: "127.0.0.1", port: 5432, database: "app", user: "app", password: "secret")
/// let realm = try await Realm(configuration: config, downloadBeforeOpen: .always)
/// ```
///
/// Every model type of the realm is synced; each needs a primary key. The server's tables are
/// created (or given new columns) when a replica first connects (Docs/Sync.md).
///
/// ## Concurrency
/// `Sendable`: the error handler must be `@Sendable`.
public struct SyncConfiguration: Sendable {
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The database that holds the synced tables.
    public var database: String
    /// The role to connect as.
    public var user: String
    /// The role's password, if the server asks for one.
    public var password: String?
    /// TLS to the server; `.disable` by default (loopback).
    public var tls: PostgresConnection.Configuration.TLS
    /// A name for this replica in the server's `strata_clients` table (where its upload position
    /// is kept). Nil (the default) names it by a random identity kept in the realm file, so each
    /// file is its own replica.
    public var clientID: String?
    /// Called on a background thread with each error the session meets (a lost connection, a
    /// schema the server's tables do not match); the session keeps retrying the ones that can
    /// pass. Local commits are never lost by an error.
    public var errorHandler: (@Sendable (Error, SyncSession?) -> Void)?
    /// Sets the realm's first subscriptions (inside an update, as `subscriptions.update`) when
    /// the file has none yet, or at every first open in the process with `rerunOnOpen`. Nil
    /// (the default) with no subscriptions ever set syncs every object of the synced types.
    public var initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)?
    /// Whether `initialSubscriptions` runs at every first open of the file in the process, not
    /// only when the file has no subscriptions.
    public var rerunOnOpen: Bool

    /// A configuration for the server at `host`:`port`.
    public init(
        host: String, port: Int = 5432, database: String, user: String, password: String? = nil,
        tls: PostgresConnection.Configuration.TLS = .disable, clientID: String? = nil,
        errorHandler: (@Sendable (Error, SyncSession?) -> Void)? = nil,
        initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)? = nil, rerunOnOpen: Bool = false
    ) {
        self.initialSubscriptions = initialSubscriptions
        self.rerunOnOpen = rerunOnOpen
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
        self.tls = tls
        self.clientID = clientID
        self.errorHandler = errorHandler
    }

    /// The connection settings postgres-nio takes.
    var connection: PostgresConnection.Configuration {
        var c = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        c.options.connectTimeout = .seconds(5)
        return c
    }
}

extension SyncConfiguration: RealmSyncAttachment {
    package func realmDidOpen(_ realm: Realm) throws {
        try SyncEngine.attach(realm, self)
    }
}

extension Realm.Configuration {
    /// The sync settings of a synced realm; nil (the default) for a local one.
    public var syncConfiguration: SyncConfiguration? {
        get { _syncAttachment as? SyncConfiguration }
        set { _syncAttachment = newValue }
    }
}
