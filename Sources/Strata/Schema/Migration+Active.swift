import Foundation

extension Migration {
    private final class Entry {
        weak var migration: Migration?
        init(_ migration: Migration) { self.migration = migration }
    }

    private nonisolated(unsafe) static var active: [ObjectIdentifier: Entry] = [:]
    private static let activeLock = NSLock()

    /// The migration running in `realm` (while its block runs), so that objects read from the
    /// new version's collections become migration objects.
    static func active(in realm: Realm) -> Migration? {
        activeLock.lock()
        defer { activeLock.unlock() }
        return active[ObjectIdentifier(realm.realmState)]?.migration
    }

    /// Runs `body` with `self` as the migration of its realm.
    func whileActive(_ body: () -> Void) {
        let id = ObjectIdentifier(realm.realmState)
        Self.activeLock.lock()
        Self.active[id] = Entry(self)
        Self.activeLock.unlock()
        defer {
            Self.activeLock.lock()
            Self.active[id] = nil
            Self.activeLock.unlock()
        }
        body()
    }
}
