/// Whether opening a synced realm waits for the server's data first
/// (`Realm(configuration:downloadBeforeOpen:)`).
public enum OpenBehavior: Sendable, Equatable {
    /// Open at once with what the file holds; the session downloads in the background.
    case never
    /// Wait until the server's data at the time of opening is in the file.
    case always
    /// Wait only when the file did not exist before (the first open on this device).
    case once
}
