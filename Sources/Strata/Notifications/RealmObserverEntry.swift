import Foundation
internal import Synchronization
internal import StrataCore
internal import StrataStorage

/// The observer of `Realm.observe`.
final class RealmObserverEntry: NotifierEntry, @unchecked Sendable {
    let block: (Realm.Notification, Realm) -> Void

    init(token: NotificationToken, target: DeliveryTarget, block: @escaping (Realm.Notification, Realm) -> Void) {
        self.block = block
        super.init(token: token, target: target, needsInitial: false)
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        if silently { return nil }
        return guarded { [block] realm in block(.didChange, realm) }
    }

    /// Calls the block on the realm's context (for `.refreshRequired`).
    func fire(_ notification: Realm.Notification, _ realm: Realm) {
        if !isInvalidated { block(notification, realm) }
    }
}
