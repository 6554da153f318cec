import Foundation

/// The implicit write transactions of `$`-bindings ("quick writes").
///
/// A quick write runs its change on the live version of what it writes: inside the realm's write
/// transaction when one is open on this thread (the change joins it, and the explicit write's
/// commit reports any error), otherwise in a write transaction of its own, committed at once.
/// Misuse that would stop the process (``Realm/violationHandler``) and errors of the commit are
/// handed to ``Realm/quickWriteErrorHandler`` instead, and the quick write's transaction is
/// cancelled, so nothing of it is written.
enum QuickWrite {
    /// Runs `body`, which changes objects of `realm` (nil: unmanaged objects, changed directly).
    static func perform(in realm: Realm?, _ body: () -> Void) {
        guard let realm else { return body() }
        let joined = realm.isInWriteTransaction
        let diverted = divertingViolations {
            if !joined { realm.beginWrite() }
            guard realm.isInWriteTransaction else { return }
            body()
        }
        if let message = diverted {
            if !joined, realm.isInWriteTransaction { realm.cancelWrite() }
            report(Realm.Error(code(for: message), message))
            return
        }
        if joined { return }
        do {
            try realm.commitWrite()
        } catch {
            report(error)
        }
    }

    /// Hands `error` to the app's handler, or logs it when there is none.
    static func report(_ error: Swift.Error) {
        if let handler = Realm.quickWriteErrorHandler {
            handler(error)
        } else {
            Logger.log(.error, Category.Storage.transaction, "A quick write through a binding failed: \(error)")
        }
    }

    // MARK: Violations

    private final class Diversion {
        var message: String?
    }

    private static let diversionKey = "io.strata.quickWrite.diversion"

    /// Runs `body` with violations recorded instead of stopping the process; returns the first
    /// one's message.
    private static func divertingViolations(_ body: () -> Void) -> String? {
        let dictionary = Thread.current.threadDictionary
        let outer = dictionary[diversionKey]
        let diversion = Diversion()
        dictionary[diversionKey] = diversion
        body()
        dictionary[diversionKey] = outer
        return diversion.message
    }

    /// Records a violation when a quick write runs on this thread; returns whether it did.
    static func divert(_ message: String) -> Bool {
        guard let diversion = Thread.current.threadDictionary[diversionKey] as? Diversion else { return false }
        if diversion.message == nil { diversion.message = message }
        return true
    }

    /// The error code of a violation's message.
    private static func code(for message: String) -> Realm.Error.Code {
        if message.contains("already managed by another Realm") { return .objectManagedByAnotherRealm }
        if message.contains("incorrect thread") { return .wrongThread }
        if message.contains("invalidated") || message.contains("deleted") { return .invalidatedObject }
        if message.contains("frozen") { return .frozen }
        if message.contains("read-only") { return .readOnly }
        return .fail
    }
}
