import Foundation
import Strata

/// One subscription of a synced realm, as `realm.subscriptions` lists it: its name, the class
/// and the query it downloads, and when it was made and last changed.
///
/// ## Concurrency
/// A `Sendable` value: a snapshot of the subscription when it was read.
public struct SyncSubscription: Sendable, Equatable {
    let id: String
    let path: String
    /// The name given when it was appended, or nil.
    public let name: String?
    /// When it was appended.
    public let createdAt: Date
    /// When its query last changed.
    public let updatedAt: Date
    /// The class of the objects it downloads.
    public let objectClassName: String
    /// Its query in Realm's query language (`age > 5`), arguments written in.
    public let queryString: String

    init(_ item: SyncSubscriptionList.Item, path: String) {
        id = item.id
        self.path = path
        name = item.name
        createdAt = Date(timeIntervalSince1970: item.created)
        updatedAt = Date(timeIntervalSince1970: item.updated)
        objectClassName = item.type
        queryString = item.query
    }

    /// Changes the subscription's query (and class): only inside `realm.subscriptions.update { }`.
    public func updateQuery<T: Object>(toType type: T.Type, where query: @escaping (Query<T>) -> Query<Bool>) {
        replace(with: QuerySubscription<T>(name: name, query: query))
    }

    /// Changes the subscription's query to a query string: only inside
    /// `realm.subscriptions.update { }`.
    public func updateQuery<T: Object>(toType type: T.Type, where predicateFormat: String, _ args: Any...) {
        replace(with: QuerySubscription<T>(name: name, where: predicateFormat, arguments: args))
    }

    /// Changes the subscription to every object of `type`: only inside
    /// `realm.subscriptions.update { }`.
    public func updateQuery<T: Object>(toType type: T.Type) {
        replace(with: QuerySubscription<T>(name: name))
    }

    private func replace<T>(with new: QuerySubscription<T>) {
        guard let engine = SyncEngine.engine(path: path) else { return }
        engine.changeSubscriptions("updateQuery") { list in
            let query = try new.query.get()
            _ = try SyncSubscriptionSQL.condition(
                try SyncSubscriptionSet.parse(query), try engine.subscribableTable(new.className))
            guard let i = list.items.firstIndex(where: { $0.id == id }) else {
                throw SyncSubscriptionSQL.invalid("the subscription \(name ?? queryString) was removed")
            }
            list.items[i].type = new.className
            list.items[i].query = query
            list.items[i].updated = Date().timeIntervalSince1970
        }
    }

    /// Two subscriptions are equal when they are the same subscription with the same query.
    public static func == (a: SyncSubscription, b: SyncSubscription) -> Bool {
        a.id == b.id && a.path == b.path && a.objectClassName == b.objectClassName && a.queryString == b.queryString
            && a.name == b.name && a.updatedAt == b.updatedAt
    }
}
