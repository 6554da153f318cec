/// Where a synced realm's subscription set stands (`realm.subscriptions.state`).
public enum SyncSubscriptionState: Sendable, Equatable {
    /// The server's objects that match the current subscriptions are in the file, and the
    /// session keeps them current.
    case complete
    /// The current subscriptions are committed locally; the download of what they match has not
    /// finished yet.
    case pending
    /// The last change of the set failed, or the server could not evaluate a subscription (the
    /// error says which); the session retries downloads with the set as committed.
    case error(SyncError)
    /// RealmSwift's state of a set replaced by a newer one. Strata's sets always read the newest
    /// committed state, so it never has this state; kept so that code switching over the states
    /// compiles.
    case superseded
}
