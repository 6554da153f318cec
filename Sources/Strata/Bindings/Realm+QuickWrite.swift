import Foundation
internal import Synchronization

extension Realm {
    private static let quickWriteHandler = Mutex<(@Sendable (any Swift.Error) -> Void)?>(nil)

    /// Called with the error of a failed quick write: a `$`-binding's implicit write transaction
    /// that could not be committed (its data is then unchanged), or misuse inside it (appending
    /// an object managed by another realm, writing a deleted object).
    ///
    /// ```swift
    /// Realm.quickWriteErrorHandler = { error in
    ///     showAlert("Could not save: \(error.localizedDescription)")
    /// }
    /// $person.dogs.append(dog)   // a Dog whose favoriteToy belongs to another realm
    /// // the handler gets "Object is already managed by another Realm. Use create instead to
    /// // copy it into this Realm."; person.dogs is unchanged
    /// ```
    ///
    /// RealmSwift commits quick writes with `try!`, which stops the app. Without a handler,
    /// Strata logs the error (``Logger``, level `.error`) and goes on. The handler runs on the
    /// thread that wrote through the binding.
    ///
    /// ## Concurrency
    /// May be set and read from any thread.
    public static var quickWriteErrorHandler: (@Sendable (any Swift.Error) -> Void)? {
        get { quickWriteHandler.withLock { $0 } }
        set { quickWriteHandler.withLock { $0 = newValue } }
    }
}
