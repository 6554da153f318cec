/// When `Results.subscribe(name:waitForSync:timeout:)` waits for the server's objects.
public enum WaitForSyncMode: Sendable, Equatable {
    /// Only when the subscription is new (the default).
    case onCreation
    /// Every time, also for a subscription the set holds already.
    case always
    /// Never: the objects arrive in the background.
    case never
}
