/// An error of a synced realm: its configuration, its schema, or the server.
///
/// Reaches the app by `Realm(configuration:)` (a schema that cannot be synced), and while
/// syncing through `SyncConfiguration.errorHandler` and `SyncSession.lastError`; never as a
/// crash, and never with a local commit lost.
public struct SyncError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it is.
    public enum Code: Sendable, Equatable {
        /// A synced type or property that cannot be synced (the message names it).
        case unsupportedSchema
        /// The server refused the credentials or the database.
        case authentication
        /// The server's tables do not match the models (a column missing or of another type).
        case schemaMismatch
        /// The server could not be reached or the connection was lost; the session retries.
        case connection
        /// A row from the server could not be read as the model's values.
        case badServerData
        /// The local file failed (its storage error is in the message).
        case local
        /// A subscription's query that the server cannot evaluate, or a subscription set
        /// changed in a way it does not allow (the message says which).
        case invalidSubscription
        /// A value PostgreSQL cannot store (a `String` containing U+0000, a date outside its
        /// range): the local write that held it was not committed.
        case unsupportedValue
    }

    /// What kind of failure it is.
    public let code: Code
    /// What happened and what to do.
    public let message: String
    /// The server's SQLSTATE, for an error the server reported.
    var sqlState: String?

    /// An error of kind `code`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The kind and the message, for logs.
    public var description: String { "Sync error (\(code)): \(message)" }
}
