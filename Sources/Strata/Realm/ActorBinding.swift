import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// The actor a realm is confined to: its executor (to check isolation) and a weak reference (to
/// run asynchronous write blocks and completions on it; the actor usually owns the realm).
final class ActorBinding: @unchecked Sendable {
    weak var actor: (any Actor)?
    let executor: UnownedSerialExecutor
    let id: ObjectIdentifier

    init(_ actor: any Actor) {
        self.actor = actor
        self.executor = actor.unownedExecutor
        self.id = ObjectIdentifier(actor)
    }

    /// Whether the calling code runs on this actor's executor.
    var isCurrent: Bool { ActorIsolation.isCurrent(executor) }
}
