import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// Where a realm may be used.
enum Confinement {
    /// The thread that opened it (a process-unique id: pthread ids are reused after a thread exits).
    case thread(UInt64)
    /// The main thread, and blocks of the main queue (which run on another thread once the
    /// program called `dispatchMain()`).
    case main
    /// Blocks running on one serial dispatch queue.
    case queue(QueueIdentity)
    /// Code isolated to one actor (`Realm(configuration:actor:)`).
    case actor(ActorBinding)
    /// Anywhere, read-only: a frozen realm.
    case frozen
}
