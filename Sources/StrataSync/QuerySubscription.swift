import Foundation
import Strata
import StrataCore
import StrataQuery

/// A subscription to add with `SyncSubscriptionSet.append`: the objects of `T` a query
/// matches, which the realm then downloads and keeps current.
///
/// ```swift
/// try await realm.subscriptions.update {
///     $0.append(QuerySubscription<Dog>(name: "adults") { $0.age > 5 })
/// }
/// ```
///
/// The query is evaluated by PostgreSQL on the type's table (Docs/Sync.md, "Subscriptions"):
/// comparisons of `T`'s own synced properties, string operations, `IN`, `BETWEEN`, `&&`, `||`
/// and `!`. Key paths through links or collections, aggregates and subqueries are refused when
/// the subscription is appended.
public struct QuerySubscription<T: Object> {
    /// The query builder form: `{ $0.age > 5 }`.
    public typealias QueryFunction = (Query<T>) -> Query<Bool>

    let name: String?
    let className: String
    /// The query in canonical text, or why it cannot be a subscription.
    let query: Result<String, SyncError>

    /// A subscription to the objects of `T` that `query` matches.
    public init(name: String? = nil, query: @escaping QueryFunction) {
        self.name = name
        className = T.className()
        self.query = Self.canonical { try Query<T>._predicate(query) }
    }

    /// A subscription to the objects of `T` that a query string matches
    /// (`QuerySubscription<Dog>(where: "age > %@", 5)`).
    public init(name: String? = nil, where predicateFormat: String, _ args: Any...) {
        self.init(name: name, where: predicateFormat, arguments: args)
    }

    /// `init(name:where:_:)` with the arguments in an array.
    init(name: String?, where predicateFormat: String, arguments args: [Any]) {
        self.name = name
        className = T.className()
        query = Self.canonical {
            let parsed = try ParsedQuery.parse(predicateFormat)
            try parsed.validateArgumentCount(args.count)
            guard parsed.ordering.isEmpty else {
                throw SyncSubscriptionSQL.invalid("SORT, DISTINCT and LIMIT do not apply to a subscription")
            }
            return (parsed.predicate, try args.map { try Realm._queryArgument($0) })
        }
    }

    /// A subscription to every object of `T`.
    public init(name: String? = nil) {
        self.name = name
        className = T.className()
        query = .success(QueryPredicate.truePredicate.description)
    }

    private static func canonical(_ build: () throws -> (QueryPredicate, [StoreValue])) -> Result<String, SyncError> {
        do {
            let (predicate, args) = try build()
            return .success(try SyncSubscriptionSQL.inlined(predicate, args).description)
        } catch let e as SyncError {
            return .failure(e)
        } catch {
            return .failure(SyncSubscriptionSQL.invalid("\(error)"))
        }
    }
}
