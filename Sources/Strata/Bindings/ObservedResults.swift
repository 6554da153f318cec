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
/// ```
///
/// `$dogs` is the wrapper itself, a ``BoundCollection``: its `append`, `remove(atOffsets:)` and
/// `remove(_:)` thaw the results and write in a quick write. Making the wrapper turns on
/// ``Realm/isObservationTrackingEnabled``.
///
/// RealmSwift's wrapper reads its configuration from the SwiftUI environment; this one takes it
/// as an argument (the default configuration when omitted), and its `filter` is a query string
/// (`"age > 1"`), not an `NSPredicate`.
///
/// ## Concurrency
/// The wrapped value is frozen and may be read on any thread. The `$`-writes run on the
/// calling thread, in a realm of the configuration confined to it.
@propertyWrapper
public struct ObservedResults<ResultType: Object>: BoundCollection {
    private let storage: ObservedValueStorage<Results<ResultType>>

    /// The matching objects, frozen at the newest version the notifications delivered.
    public var wrappedValue: Results<ResultType> { storage.value }

    /// The wrapper, whose collection methods write implicitly (`$dogs.append(dog)`).
    public var projectedValue: Self { self }

    /// Observes the objects of `type` matching `filter` (a query string), sorted by
    /// `sortDescriptor`.
    /// - Parameters:
    ///   - configuration: The realm to read (the default configuration when nil).
    ///   - keyPaths: The properties whose changes replace the results; nil for all.
    public init(
        _ type: ResultType.Type, configuration: Realm.Configuration? = nil, filter: String? = nil,
        keyPaths: [String]? = nil, sortDescriptor: SortDescriptor? = nil
    ) {
        self.init(type, configuration: configuration, keyPaths: keyPaths) { results in
            let filtered = filter.map { results.filter($0) } ?? results
            return sortDescriptor.map { filtered.sorted(by: [$0]) } ?? filtered
        }
    }

    /// Observes the objects of `type` matching the query `where` builds, sorted by
    /// `sortDescriptor`.
    public init(
        _ type: ResultType.Type, configuration: Realm.Configuration? = nil,
        where query: ((Query<ResultType>) -> Query<Bool>)?, keyPaths: [String]? = nil,
        sortDescriptor: SortDescriptor? = nil
    ) {
        self.init(type, configuration: configuration, keyPaths: keyPaths) { results in
            let filtered = query.map { results.where($0) } ?? results
            return sortDescriptor.map { filtered.sorted(by: [$0]) } ?? filtered
        }
    }

    private init(
        _ type: ResultType.Type, configuration: Realm.Configuration?, keyPaths: [String]?,
        query: @escaping (Results<ResultType>) -> Results<ResultType>
    ) {
        let configuration = configuration ?? Realm.Configuration.defaultConfiguration
        storage = ObservedValueStorage(
            placeholder: Results(realm: nil, query: StoreQuery(), objectType: ResultType.self, values: nil),
            configuration: configuration
        ) { realm, queue, publish in
            let results = query(realm.objects(ResultType.self))
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
