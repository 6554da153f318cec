import Foundation
internal import StrataCore

/// A property wrapper that holds the objects of a class matching a query, frozen, and kept
/// current: after each commit (of any thread or process) that changes them, the wrapped value
/// is replaced by the newer frozen results, and Observation trackings that read it (a SwiftUI
/// body, `withObservationTracking`, an `Observations` sequence) are told.
///
/// ```swift
/// @ObservedResults(Dog.self, where: { $0.age > 1 }, sortDescriptor: SortDescriptor(keyPath: "name"))
/// var dogs
///
/// for dog in dogs { print(dog.name) }              // frozen: readable on any thread
/// $dogs.append(Dog(value: ["name": "Bandido"]))    // a quick write: adds the dog
/// $dogs.remove(atOffsets: IndexSet(integer: 0))    // deletes the first dog
/// $dogs.where = { $0.name.starts(with: "B") }      // the results follow the new query
/// ```
///
/// `$dogs` is the wrapper itself, a ``BoundCollection``: its `append`, `remove(atOffsets:)` and
/// `remove(_:)` thaw the results and write in a quick write. Setting its ``filter``, ``where``
/// or ``sortDescriptor`` replaces the query: the wrapped value is the new query's results from
/// then on. Making the wrapper turns on ``Realm/isObservationTrackingEnabled``.
///
/// RealmSwift's wrapper reads its configuration from the SwiftUI environment; this one takes it
/// as an argument (the default configuration when omitted), and its `filter` is a query string
/// (`"age > 1"`), not an `NSPredicate`.
///
/// ## Concurrency
/// The wrapped value is frozen and may be read on any thread. The `$`-writes run on the
/// calling thread, in a realm of the configuration confined to it.
@propertyWrapper
public struct ObservedResults<ResultType: _ObservedResultsValue>: BoundCollection {
    private let storage: ObservedValueStorage<Results<ResultType>>
    private let query: ObservedResultsQuery<ResultType>

    /// The matching objects, frozen at the newest version the notifications delivered.
    public var wrappedValue: Results<ResultType> { storage.value }

    /// The wrapper, whose collection methods write implicitly (`$dogs.append(dog)`).
    public var projectedValue: Self { self }

    /// The query string the objects match; setting it replaces the filter (and a type-safe
    /// query set with ``where``) and the results follow. Nil when there is none, or when the
    /// filter is a type-safe query.
    public var filter: String? {
        get { query.filterString }
        nonmutating set {
            query.currentFilter = newValue.map { .string($0) }
            restart()
        }
    }

    /// The type-safe query the objects match; setting it replaces the filter (and a query
    /// string set with ``filter``) and the results follow. Nil when there is none, or when the
    /// filter is a query string.
    public var `where`: ((Query<ResultType>) -> Query<Bool>)? {
        get { query.whereQuery }
        nonmutating set {
            query.currentFilter = newValue.map { .query($0) }
            restart()
        }
    }

    /// The order of the objects; setting it re-sorts the results (nil: the order of the
    /// class's objects).
    public var sortDescriptor: SortDescriptor? {
        get { query.sortDescriptors.first }
        nonmutating set {
            query.sortDescriptors = newValue.map { [$0] } ?? []
            restart()
        }
    }

    /// Observes the objects of `type` matching `filter` (a query string), sorted by
    /// `sortDescriptor`.
    /// - Parameters:
    ///   - configuration: The realm to read (the default configuration when nil).
    ///   - keyPaths: The properties whose changes replace the results; nil for all.
    public init(
        _ type: ResultType.Type, configuration: Realm.Configuration? = nil, filter: String? = nil,
        keyPaths: [String]? = nil, sortDescriptor: SortDescriptor? = nil
    ) {
        self.init(
            ObservedResultsQuery(
                configuration: configuration, keyPaths: keyPaths, filter: filter.map { .string($0) },
                sortDescriptors: sortDescriptor.map { [$0] } ?? []))
    }

    /// Observes the objects of `type` matching the query `where` builds, sorted by
    /// `sortDescriptor`.
    public init(
        _ type: ResultType.Type, configuration: Realm.Configuration? = nil,
        where query: ((Query<ResultType>) -> Query<Bool>)?, keyPaths: [String]? = nil,
        sortDescriptor: SortDescriptor? = nil
    ) {
        self.init(
            ObservedResultsQuery(
                configuration: configuration, keyPaths: keyPaths, filter: query.map { .query($0) },
                sortDescriptors: sortDescriptor.map { [$0] } ?? []))
    }

    private init(_ query: ObservedResultsQuery<ResultType>) {
        self.query = query
        storage = ObservedValueStorage(
            placeholder: Realm.observedResults(ResultType.self, in: nil),
            configuration: query.configuration, subscribe: Self.subscribe(query))
    }

    /// Observes the results of the current query from now on.
    private func restart() {
        storage.restart(with: storage.value, configuration: query.configuration, subscribe: Self.subscribe(query))
    }

    /// Publishes the results of `query` (as it is now) and then after each change.
    private static func subscribe(
        _ query: ObservedResultsQuery<ResultType>
    ) -> (Realm, DispatchQueue, @escaping (Results<ResultType>) -> Void) -> NotificationToken? {
        let sortDescriptors = query.sortDescriptors
        let filter = query.currentFilter
        let keyPaths = query.keyPaths
        return { realm, queue, publish in
            var results = Realm.observedResults(ResultType.self, in: realm)
            switch filter {
            case .string(let string): results = results.filter(string)
            case .query(let query): results = results.where(query)
            case nil: break
            }
            if !sortDescriptors.isEmpty { results = results.sorted(by: sortDescriptors) }
            publish(results.freeze())
            return results.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let r), .update(let r, _, _, _): publish(r.freeze())
                case .error(let error): QuickWrite.report(error)
                }
            }
        }
    }
}
