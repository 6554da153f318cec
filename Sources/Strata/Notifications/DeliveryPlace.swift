import Foundation

/// Where an observer asked for its callbacks: a serial queue (nil: the registering realm's own
/// context) or an actor. Turned into a ``DeliveryTarget`` for the realm registering.
enum DeliveryPlace {
    case queue(DispatchQueue?)
    case actor(any Actor)

    /// The target for an observer registered on `realm` (nil, after reporting the misuse, when
    /// the realm cannot register one; see ``DeliveryTarget/make(for:queue:inWriteCheck:)``).
    func target(for realm: Realm) -> DeliveryTarget? {
        switch self {
        case .queue(let queue): DeliveryTarget.make(for: realm, queue: queue, inWriteCheck: true)
        case .actor(let actor): DeliveryTarget.make(for: realm, actor: actor)
        }
    }
}
