/// What a configuration carries for the sync product: told of every realm opened with it, after
/// its schema is ready. Not API (`Realm.Configuration._syncAttachment`).
package protocol RealmSyncAttachment: Sendable {
    /// Called by `Realm(configuration:)` for each realm it returns.
    func realmDidOpen(_ realm: Realm) throws
}
