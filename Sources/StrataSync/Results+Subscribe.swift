import Foundation
import Strata
import StrataQuery

extension Results where Element: Object {
    /// Subscribes to these results (RealmSwift's shorthand for a `subscriptions.update` that
    /// appends one `QuerySubscription`), waits for the server's objects as `waitForSync` says,
    /// and returns the results.
    ///
    /// ```swift
    /// let adults = try await realm.objects(Dog.self).where { $0.age > 5 }.subscribe(name: "adults")
    /// ```
    /// - Throws: `SyncError` (`.invalidSubscription`) for results that are not a query of a
    ///   synced class or a query the server cannot evaluate (nothing is committed), or when the
    ///   wait exceeds `timeout` seconds (the subscription stays).
    public func subscribe(
        name: String? = nil, waitForSync: WaitForSyncMode = .onCreation, timeout: TimeInterval? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Results<Element> {
        let set = try subscriptionSet()
        let query = try subscriptionQuery()
        let existing = set.first {
            $0.objectClassName == Element.className() && $0.queryString == query && $0.name == name
        }
        if existing == nil {
            let version = try set.commit { set.append(QuerySubscription<Element>(name: name, where: query)) }
            if waitForSync == .never { return self }
            let engine = SyncEngine.engine(path: set.path)
            try await Self.withTimeout(timeout) { try await engine?.waitForSubscriptions(version) }
        } else if waitForSync == .always, let session = realm?.syncSession {
            try await Self.withTimeout(timeout) { try await session.wait(for: .download) }
        }
        realm?.refresh()
        return self
    }

    /// Removes the subscription `subscribe()` made for these results (an unnamed one with this
    /// query), if the set holds one; returns without waiting for the server.
    public func unsubscribe() {
        guard let set = try? subscriptionSet(), let query = try? subscriptionQuery() else { return }
        set.update({
            for s in set where s.objectClassName == Element.className() && s.queryString == query && s.name == nil {
                set.remove(s)
            }
        })
    }

    private func subscriptionSet() throws -> SyncSubscriptionSet {
        guard let realm, realm.syncSession != nil else {
            throw SyncError(
                .invalidSubscription,
                "subscribe() needs results of a synced realm (a configuration with a syncConfiguration).")
        }
        return realm.subscriptions
    }

    /// The results' query as a subscription's canonical text.
    private func subscriptionQuery() throws -> String {
        guard let q = _syncQuery else {
            throw SyncError(
                .invalidSubscription,
                "subscribe() needs results of realm.objects(_:), filtered or not; results of a collection or of values cannot be subscribed to."
            )
        }
        return try SyncSubscriptionSQL.inlined(q.predicate, q.arguments).description
    }

    /// `body`, limited to `seconds` when given (`SyncDeadline`).
    private static func withTimeout(
        _ seconds: TimeInterval?, _ body: @escaping @Sendable () async throws -> Void
    )
        async throws
    {
        guard let seconds else { return try await body() }
        try await SyncDeadline.run(
            seconds, "subscribe()",
            timeoutMessage:
                "subscribe() waited more than \(seconds) s for the server's objects; the subscription stays.",
            body)
    }
}
