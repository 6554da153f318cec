import Foundation
internal import StrataCore
internal import StrataStorage

/// A registration for change notifications; call `invalidate()` to stop them.
///
/// ## Concurrency
/// Not `Sendable`; confined with the realm it observes.
public final class NotificationToken {
    weak var realmState: RealmState?
    let block: () -> Void

    init(realm: Realm, block: @escaping () -> Void) {
        self.realmState = realm.realmState
        self.block = block
    }

    func fire() { block() }

    /// Stops the notifications.
    public func invalidate() {
        realmState?.observers[ObjectIdentifier(self)] = nil
    }
}
