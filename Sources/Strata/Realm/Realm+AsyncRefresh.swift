extension Realm {
    /// Moves the realm to the newest committed version, as `refresh()` does, from `async` code
    /// of the realm's own isolation (the main actor for a realm of the main thread, or the actor
    /// of `Realm(configuration:actor:)`). Returns whether anything changed.
    ///
    /// ```swift
    /// @MainActor func reload() async {
    ///     await realm.asyncRefresh()
    /// }
    /// ```
    ///
    /// The refresh itself does not wait: Strata moves a realm to a new version without computing
    /// anything first, so there is nothing to suspend for (RealmSwift may wait for its notifier).
    /// Called outside the realm's isolation it is the "Realm accessed from incorrect thread."
    /// violation and returns false.
    @discardableResult
    public func asyncRefresh(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        refresh()
    }
}
