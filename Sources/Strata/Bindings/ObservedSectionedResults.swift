import Foundation
internal import StrataCore

/// A property wrapper that holds the objects of a class matching a query, sorted and grouped
/// into sections by a key, frozen and kept current as ``ObservedResults`` keeps its results.
///
/// ```swift
/// @ObservedSectionedResults(Dog.self, sectionKeyPath: \.breed,
///                           sortDescriptors: [SortDescriptor(keyPath: "breed"), SortDescriptor(keyPath: "name")])
/// var dogsByBreed
///
/// @ObservedSectionedResults(Dog.self, sectionBlock: { String($0.name.prefix(1)) },
///                           sortDescriptors: [SortDescriptor(keyPath: "name")])
/// var dogsByInitial
///
/// for section in dogsByBreed { print(section.key, section.map(\.name)) }
/// $dogsByBreed.filter = "age > 2"                  // the sections follow the new query
/// ```
///
/// With a section key path and no sort descriptors the objects are sorted by the section key;
/// with a section block at least one sort descriptor is needed (its absence is reported through
/// `Realm.violationHandler`, and the objects are then sectioned in their stored order). Setting
/// ``filter``, ``where`` or ``sortDescriptors`` replaces the query. The configuration is an
/// argument (RealmSwift reads it from the SwiftUI environment); `filter` is a query string.
///
/// `ResultType` may also be a `Projection` class: the sections then hold projections, a section
/// key path of the projection sorts by the projected class's property it reads, and sort
/// descriptors and filters name the projected class's properties.
///
/// ## Concurrency
/// The wrapped value is frozen and may be read on any thread.
@propertyWrapper
public struct ObservedSectionedResults<Key: _Persistable & Hashable, ResultType: _ObservedResultsValue> {
    private let storage: ObservedValueStorage<SectionedResults<Key, ResultType>?>
    private let query: ObservedResultsQuery<ResultType>
    private let sectionBlock: (ResultType) -> Key
    private let sectionKeyPath: KeyPath<ResultType, Key>?

    /// The sections, frozen at the newest version the notifications delivered; empty when the
    /// realm could not be opened.
    public var wrappedValue: SectionedResults<Key, ResultType> {
        storage.value ?? empty
    }

    /// The wrapper.
    public var projectedValue: Self { self }

    /// The query string the objects match; setting it replaces the filter (and a type-safe
    /// query set with ``where``) and the sections follow. Nil when there is none, or when the
    /// filter is a type-safe query.
    public var filter: String? {
        get { query.filterString }
        nonmutating set {
            query.currentFilter = newValue.map { .string($0) }
            restart()
        }
    }

    /// The type-safe query the objects match; setting it replaces the filter (and a query
    /// string set with ``filter``) and the sections follow.
    public var `where`: ((Query<ResultType>) -> Query<Bool>)? {
        get { query.whereQuery }
        nonmutating set {
            query.currentFilter = newValue.map { .query($0) }
            restart()
        }
    }

    /// The order of the objects (the first descriptor should order by the section key);
    /// setting it re-sorts and regroups the sections.
    public var sortDescriptors: [SortDescriptor] {
        get { query.sortDescriptors }
        nonmutating set {
            query.sortDescriptors = newValue
            restart()
        }
    }

    /// Observes the objects of `type` matching `filter` (or the query `where` builds), grouped by
    /// `sectionKeyPath` and sorted by `sortDescriptors`.
    /// - Parameters:
    ///   - keyPaths: The properties whose changes replace the sections; nil for all.
    ///   - configuration: The realm to read (the default configuration when nil).
    public init(
        _ type: ResultType.Type, sectionKeyPath: KeyPath<ResultType, Key>, sortDescriptors: [SortDescriptor] = [],
        filter: String? = nil, where query: ((Query<ResultType>) -> Query<Bool>)? = nil, keyPaths: [String]? = nil,
        configuration: Realm.Configuration? = nil
    ) {
        self.init(
            sectionKeyPath: sectionKeyPath, sectionBlock: { $0[keyPath: sectionKeyPath] },
            query: ObservedResultsQuery(
                configuration: configuration, keyPaths: keyPaths,
                filter: filter.map { .string($0) } ?? query.map { .query($0) }, sortDescriptors: sortDescriptors))
    }

    /// Observes the objects of `type` matching `filter` (or the query `where` builds), sorted by
    /// `sortDescriptors` and grouped by the key `sectionBlock` gives each one.
    /// - Parameters:
    ///   - sectionBlock: The section key of an object; the first sort descriptor should order
    ///     by it (or by what it is computed from), so that each key's objects are together.
    ///   - keyPaths: The properties whose changes replace the sections; nil for all.
    ///   - configuration: The realm to read (the default configuration when nil).
    public init(
        _ type: ResultType.Type, sectionBlock: @escaping (ResultType) -> Key, sortDescriptors: [SortDescriptor],
        filter: String? = nil, where query: ((Query<ResultType>) -> Query<Bool>)? = nil, keyPaths: [String]? = nil,
        configuration: Realm.Configuration? = nil
    ) {
        self.init(
            sectionKeyPath: nil, sectionBlock: sectionBlock,
            query: ObservedResultsQuery(
                configuration: configuration, keyPaths: keyPaths,
                filter: filter.map { .string($0) } ?? query.map { .query($0) }, sortDescriptors: sortDescriptors))
    }

    private init(
        sectionKeyPath: KeyPath<ResultType, Key>?, sectionBlock: @escaping (ResultType) -> Key,
        query: ObservedResultsQuery<ResultType>
    ) {
        self.sectionKeyPath = sectionKeyPath
        self.sectionBlock = sectionBlock
        self.query = query
        storage = ObservedValueStorage(
            placeholder: nil, configuration: query.configuration,
            subscribe: Self.subscribe(query, sectionKeyPath: sectionKeyPath, sectionBlock: sectionBlock))
    }

    /// Observes the sections of the current query from now on.
    private func restart() {
        storage.restart(
            with: storage.value, configuration: query.configuration,
            subscribe: Self.subscribe(query, sectionKeyPath: sectionKeyPath, sectionBlock: sectionBlock))
    }

    /// Publishes the sections of `query` (as it is now) and then after each change.
    private static func subscribe(
        _ query: ObservedResultsQuery<ResultType>, sectionKeyPath: KeyPath<ResultType, Key>?,
        sectionBlock: @escaping (ResultType) -> Key
    ) -> (Realm, DispatchQueue, @escaping (SectionedResults<Key, ResultType>?) -> Void) -> NotificationToken? {
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
            let sections = Self.sections(
                of: results, keyPath: sectionKeyPath, block: sectionBlock, sortDescriptors: sortDescriptors)
            publish(sections.freeze())
            return sections.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let s), .update(let s, _, _, _, _, _): publish(s.freeze())
                }
            }
        }
    }

    private var empty: SectionedResults<Key, ResultType> {
        SectionedResults(
            core: _SectionedResultsCore(
                source: _SectionSource(Realm.observedResults(ResultType.self, in: nil)), keyOf: sectionBlock))
    }

    /// `results` sorted by `sortDescriptors` (by the persisted property `keyPath` reads when
    /// there are none and a key path is given) and grouped by `block`'s key. Without sort
    /// descriptors, or with a key path that is not a persisted property, the misuse is reported
    /// and the objects are grouped in their stored order.
    private static func sections(
        of results: Results<ResultType>, keyPath: KeyPath<ResultType, Key>?, block: @escaping (ResultType) -> Key,
        sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, ResultType> {
        guard sortDescriptors.isEmpty, let keyPath else {
            return results._sortedSections(sortDescriptors: sortDescriptors, block)
        }
        guard let name = persistedName(of: keyPath) else {
            Realm.violation(
                "The key path \(keyPath) is not a persisted property of \(ResultType.self); pass its name as a string to follow links (\"owner.name\").",
                fallback: ())
            return SectionedResults(core: _SectionedResultsCore(source: _SectionSource(results), keyOf: block))
        }
        return results._sortedSections(sortDescriptors: [SortDescriptor(keyPath: name, ascending: true)], block)
    }

    /// The persisted property `keyPath` reads: for an object class, the property's name; for a
    /// projection, the path in the projected class it projects (`\.years` -> `age`).
    private static func persistedName(of keyPath: AnyKeyPath) -> String? {
        if let projection = ResultType.self as? any _ProjectionSchemaProviding.Type {
            return projection._strataProjectedProperties.first { $0.projectionKeyPath == keyPath }?.origin
        }
        return (ResultType.self as? any ObjectSchemaProviding.Type)?.strataKeyPathNames[keyPath]
    }
}
