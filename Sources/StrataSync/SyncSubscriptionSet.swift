import Foundation
import Strata
import StrataQuery

/// The subscriptions of a synced realm (`realm.subscriptions`): which objects it downloads.
///
/// ```swift
/// try await realm.subscriptions.update {
///     $0.append(QuerySubscription<Dog>(name: "adults") { $0.age > 5 })
/// }
/// ```
///
/// Changes go inside `update { }`, which commits them to the realm file with a new version; the
/// next download pass reads every row of the server again under the new set: objects it newly
/// matches download, objects it no longer matches leave the device (they stay on the server).
/// An object written on the device that no subscription matches is uploaded, then leaves the
/// device as well. A realm whose subscriptions were never set syncs every object of its types
/// (Docs/Sync.md, "Subscriptions").
///
/// ## Concurrency
/// A `Sendable` value that reads the file's newest committed set at each call; `update` may be
/// called from any thread, one at a time per realm file.
public struct SyncSubscriptionSet: Sequence, Sendable {
    let path: String

    init(path: String) { self.path = path }

    private var engine: SyncEngine? { SyncEngine.engine(path: path) }

    private var items: [SyncSubscription] {
        guard let list = try? engine?.subscriptionList() else { return [] }
        return list.items.map { SyncSubscription($0, path: path) }
    }

    /// How many subscriptions the set holds.
    public var count: Int { items.count }

    /// Where the set stands: `.pending` until a download pass has applied the newest set.
    public var state: SyncSubscriptionState {
        engine?.subscriptionState
            ?? .error(SyncError(.invalidSubscription, "The realm of '\(path)' does not sync: it has no subscriptions."))
    }

    /// The subscription at `position` in the order they were appended, or nil past the end.
    public subscript(position: Int) -> SyncSubscription? {
        let all = items
        return all.indices.contains(position) ? all[position] : nil
    }

    /// The first subscription appended, or nil.
    public var first: SyncSubscription? { items.first }

    /// The last subscription appended, or nil.
    public var last: SyncSubscription? { items.last }

    /// Iterates over the subscriptions in the order they were appended.
    public func makeIterator() -> IndexingIterator<[SyncSubscription]> { items.makeIterator() }

    /// The subscription named `named`, or nil.
    public func first(named: String) -> SyncSubscription? { items.first { $0.name == named } }

    /// The subscription of `type` with this query, or nil.
    public func first<T: Object>(
        ofType type: T.Type, where query: @escaping (Query<T>) -> Query<Bool>
    )
        -> SyncSubscription?
    {
        find(QuerySubscription<T>(query: query))
    }

    /// The subscription of `type` with this query string, or nil.
    public func first<T: Object>(
        ofType type: T.Type, where predicateFormat: String, _ args: Any...
    )
        -> SyncSubscription?
    {
        find(QuerySubscription<T>(name: nil, where: predicateFormat, arguments: args))
    }

    private func find<T>(_ s: QuerySubscription<T>) -> SyncSubscription? {
        guard let q = try? s.query.get() else { return nil }
        return items.first { $0.objectClassName == s.className && $0.queryString == q }
    }

    // MARK: Changes (inside `update`)

    /// Adds subscriptions: only inside `update { }`. An unnamed subscription with the query of
    /// one the set holds is not added twice; a name the set holds already is an error (change
    /// that subscription with `updateQuery` instead).
    /// Unlike RealmSwift's, one call may append subscriptions of several types.
    public func append<each T: Object>(_ subscriptions: repeat QuerySubscription<each T>) {
        guard let engine else { return }
        var all: [(name: String?, className: String, query: Result<String, SyncError>)] = []
        for s in repeat each subscriptions { all.append((s.name, s.className, s.query)) }
        engine.changeSubscriptions("append") { list in
            for s in all {
                let query = try s.query.get()
                _ = try SyncSubscriptionSQL.condition(try Self.parse(query), try engine.subscribableTable(s.className))
                if let name = s.name {
                    if let old = list.items.first(where: { $0.name == name }) {
                        if old.type == s.className && old.query == query { continue }
                        throw SyncSubscriptionSQL.invalid(
                            "a subscription named '\(name)' exists already; change it with updateQuery(toType:where:), or remove it first"
                        )
                    }
                } else if list.items.contains(where: { $0.name == nil && $0.type == s.className && $0.query == query })
                {
                    continue
                }
                let now = Date().timeIntervalSince1970
                list.items.append(
                    .init(
                        id: Self.newID(), name: s.name, type: s.className, query: query, created: now, updated: now))
            }
        }
    }

    /// Removes these subscriptions: only inside `update { }`.
    public func remove(_ subscriptions: SyncSubscription...) {
        let ids = Set(subscriptions.map(\.id))
        engine?.changeSubscriptions("remove") { $0.items.removeAll { ids.contains($0.id) } }
    }

    /// Removes the subscriptions with these names: only inside `update { }`.
    public func remove(named names: String...) {
        let names = Set(names)
        engine?.changeSubscriptions("remove(named:)") { list in
            list.items.removeAll { $0.name.map(names.contains) ?? false }
        }
    }

    /// Removes every subscription, or every unnamed one: only inside `update { }`. An empty set
    /// downloads nothing (and the objects on the device leave it).
    public func removeAll(unnamedOnly: Bool = false) {
        engine?.changeSubscriptions("removeAll") { list in
            list.items.removeAll { !unnamedOnly || $0.name == nil }
        }
    }

    /// Removes every subscription of `type`: only inside `update { }`.
    public func removeAll<T: Object>(ofType type: T.Type) {
        let name = T.className()
        engine?.changeSubscriptions("removeAll(ofType:)") { $0.items.removeAll { $0.type == name } }
    }

    // MARK: Updates

    /// Runs `block`, whose `append` / `remove` / `updateQuery` calls change the set, and commits
    /// the new set to the file; returns without waiting for the server. `onComplete` is called
    /// on the main queue once the objects the new set matches are in the file, or with the error
    /// (a query the server cannot evaluate, a name used twice: then nothing is committed).
    public func update(_ block: () -> Void, onComplete: ((Error?) -> Void)? = nil) {
        nonisolated(unsafe) let done = onComplete
        let version: UInt64
        do {
            version = try commit(block)
        } catch {
            if done != nil { DispatchQueue.main.async { done?(error) } }
            return
        }
        guard done != nil, let engine else { return }
        Task.detached {
            var failure: Error?
            do { try await engine.waitForSubscriptions(version) } catch { failure = error }
            let result = failure
            DispatchQueue.main.async { done?(result) }
        }
    }

    /// `update(_:onComplete:)` with the set as the block's argument:
    /// `subscriptions.update { $0.append(...) }`.
    public func update(_ block: (SyncSubscriptionSet) -> Void, onComplete: ((Error?) -> Void)? = nil) {
        update({ block(self) }, onComplete: onComplete)
    }

    /// Runs `block`, whose `append` / `remove` / `updateQuery` calls change the set, commits the
    /// new set, and returns once the objects it matches are in the file.
    /// - Throws: `SyncError` (`.invalidSubscription`) for a query the server cannot evaluate or
    ///   a name used twice (nothing is committed then), or when the session stops or fails
    ///   before the download ends.
    public func update(_ block: () -> Void, isolation: isolated (any Actor)? = #isolation) async throws {
        let version = try commit(block)
        guard let engine else { return }
        try await engine.waitForSubscriptions(version)
    }

    /// `update(_:)` with the set as the block's argument: `subscriptions.update { $0.append(...) }`.
    public func update(
        _ block: (SyncSubscriptionSet) -> Void, isolation: isolated (any Actor)? = #isolation
    )
        async throws
    {
        try await update({ block(self) }, isolation: isolation)
    }

    /// Runs an update block and commits its set without waiting; returns the new version.
    func commit(_ block: () -> Void) throws -> UInt64 {
        guard let engine else {
            throw SyncError(
                .invalidSubscription,
                "The realm of '\(path)' does not sync: open it with a configuration that has a syncConfiguration to use subscriptions."
            )
        }
        try engine.beginSubscriptionUpdate()
        block()
        return try engine.endSubscriptionUpdate()
    }

    static func parse(_ query: String) throws -> QueryPredicate {
        try ParsedQuery.parse(query).predicate
    }

    private static func newID() -> String {
        (0..<12).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }
}
