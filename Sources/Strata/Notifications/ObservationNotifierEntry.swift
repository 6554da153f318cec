import Foundation
internal import StrataCore

/// The notifier's view of an ``ObservationHub``: each round hands it the span of commits, and
/// the hub tells Observation, on the notifier thread, which recorded reads changed. It never
/// delivers jobs, so its target is never used.
final class ObservationNotifierEntry: NotifierEntry, @unchecked Sendable {
    private let hub: ObservationHub

    init(token: NotificationToken, target: DeliveryTarget, hub: ObservationHub) {
        self.hub = hub
        super.init(token: token, target: target, needsInitial: false)
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        if isInvalidated { return nil }
        try hub.update(span)
        return nil
    }
}
