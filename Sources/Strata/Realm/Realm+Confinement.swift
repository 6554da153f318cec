import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

extension Realm {
    /// Turns the thread-confinement check off (true by default). Only for measuring what the check
    /// costs (`strata-bench concurrency`); never turn it off in an application.
    ///
    /// Read on every access to a realm, so it opts out of the run-time exclusivity check a global
    /// variable's read otherwise costs (about 75 instructions, a third of the check itself).
    @exclusivity(unchecked) public nonisolated(unsafe) static var _strataConfinementChecks = true

    /// Whether this realm is frozen: an immutable snapshot readable from any thread.
    public var isFrozen: Bool { realmState.isFrozen }

    /// Stops with "Realm accessed from incorrect thread." (through `violationHandler`) when the
    /// calling thread may not use this realm. Returns whether the access may go on.
    @inline(__always)
    func checkThread() -> Bool {
        if realmState.isOnOwner { return true }
        return Realm.violation(
            "Realm accessed from incorrect thread. ('\(file.path)' belongs to another thread or queue; pass a ThreadSafeReference or a frozen object instead.)",
            fallback: false)
    }

    /// Throws `.wrongThread` when the calling thread may not use this realm.
    func requireThread() throws {
        guard realmState.isOnOwner else {
            throw Realm.Error(
                .wrongThread,
                "Realm accessed from incorrect thread. ('\(file.path)' belongs to another thread or queue; open a realm on this thread, or pass a ThreadSafeReference.)",
                path: file.path)
        }
    }
}
