import Foundation

/// The projections of the objects of one class that match a query: what
/// `realm.objects(PersonProjection.self)` gives. Lazy and live, as the `Results` of the
/// projected objects it wraps (`rootResults`); each element is a new projection of the object
/// at that position.
///
/// ```swift
/// let people = realm.objects(PersonProjection.self).where { $0.firstName.starts(with: "A") }
/// for person in people { print(person.firstName, person.homeCity ?? "-") }
/// ```
///
/// Queries and sort descriptors name properties of the projected class (`Person`), not of the
/// projection.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. Frozen projection results (`freeze()`) may be read
/// from any thread.
public struct ProjectionResults<Element: ProjectionObservable>: RandomAccessCollection, CustomStringConvertible,
    ThreadConfined
{
    /// The results of the projected objects.
    public let rootResults: Results<Element.Root>

    /// The projections of the objects of `rootResults`.
    public init(_ rootResults: Results<Element.Root>) {
        self.rootResults = rootResults
    }

    /// The position of the first projection (0).
    public var startIndex: Int { 0 }
    /// The number of projections; equals `count`.
    public var endIndex: Int { rootResults.endIndex }
    /// The number of matching objects.
    public var count: Int { rootResults.count }

    /// A projection of the object at `position`.
    public subscript(position: Int) -> Element {
        Element(projecting: rootResults[position])
    }

    /// The realm the results read from.
    public var realm: Realm? { rootResults.realm }

    /// Always false: results of a realm stay readable (they read nothing after `invalidate()`).
    public var isInvalidated: Bool { false }

    /// Whether the results belong to a frozen realm.
    public var isFrozen: Bool { rootResults.isFrozen }

    /// Frozen results: the projections of the objects matching in the realm's current version,
    /// readable from any thread.
    public func freeze() -> ProjectionResults {
        ProjectionResults(rootResults.freeze())
    }

    /// The live results of the same query in the calling thread's realm.
    public func thaw() -> ProjectionResults? {
        rootResults.thaw().map { ProjectionResults($0) }
    }

    /// The projections of the objects for which `isIncluded` holds (a type-safe query of the
    /// projected class).
    public func `where`(_ isIncluded: (Query<Element.Root>) -> Query<Bool>) -> ProjectionResults {
        ProjectionResults(rootResults.where(isIncluded))
    }

    /// The projections of the objects matching `predicateFormat` (Realm's query language, over
    /// the projected class's properties).
    public func filter(_ predicateFormat: String, _ args: Any...) -> ProjectionResults {
        ProjectionResults(rootResults.filter(predicateFormat, arguments: args))
    }

    /// The projections sorted by the projected class's property `keyPath` names.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> ProjectionResults {
        ProjectionResults(rootResults.sorted(byKeyPath: keyPath, ascending: ascending))
    }

    /// The projections sorted by several properties of the projected class, the first deciding
    /// first.
    public func sorted<S: Sequence>(by descriptors: S) -> ProjectionResults where S.Element == SortDescriptor {
        ProjectionResults(rootResults.sorted(by: descriptors))
    }

    /// Calls `block` with the changes of the results, as `Results.observe` does for the
    /// projected objects: `.initial`, then `.update` with the positions deleted, inserted and
    /// modified by each commit.
    ///
    /// - Parameters:
    ///   - keyPaths: The properties of the projected class whose changes count as
    ///     modifications; nil for all of them.
    ///   - queue: A serial queue to deliver on; nil for this realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<ProjectionResults>) -> Void
    ) -> NotificationToken {
        rootResults.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let results): block(.initial(ProjectionResults(results)))
            case .update(let results, let deletions, let insertions, let modifications):
                block(
                    .update(
                        ProjectionResults(results), deletions: deletions, insertions: insertions,
                        modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }

    /// A short description with the count.
    public var description: String { "ProjectionResults<\(Element.self)>(count: \(count))" }
}
