/// The session's link to its engine, which owns the session.
final class WeakEngine: @unchecked Sendable {
    weak var engine: SyncEngine?
    init(_ e: SyncEngine) { engine = e }
}
