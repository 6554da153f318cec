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
/// for section in dogsByBreed { print(section.key, section.map(\.name)) }
/// ```
///
/// With no sort descriptors the objects are sorted by the section key. The configuration is an
/// argument (RealmSwift reads it from the SwiftUI environment); `filter` is a query string.
///
/// ## Concurrency
/// The wrapped value is frozen and may be read on any thread.
@propertyWrapper
public struct ObservedSectionedResults<Key: _Persistable & Hashable, ResultType: Object> {
    private let storage: ObservedValueStorage<SectionedResults<Key, ResultType>?>
    private let sectionKeyPath: KeyPath<ResultType, Key>

    /// The sections, frozen at the newest version the notifications delivered; empty when the
    /// realm could not be opened.
    public var wrappedValue: SectionedResults<Key, ResultType> {
        storage.value ?? empty
    }

    /// The wrapper.
    public var projectedValue: Self { self }

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
        self.sectionKeyPath = sectionKeyPath
        let configuration = configuration ?? Realm.Configuration.defaultConfiguration
        storage = ObservedValueStorage(placeholder: nil, configuration: configuration) { realm, queue, publish in
            var results = realm.objects(ResultType.self)
            if let filter { results = results.filter(filter) }
            if let query { results = results.where(query) }
            let sections =
                sortDescriptors.isEmpty
                ? results.sectioned(by: sectionKeyPath, ascending: true)
                : results.sectioned(by: sectionKeyPath, sortDescriptors: sortDescriptors)
            publish(sections.freeze())
            return sections.observe(keyPaths: keyPaths, on: queue) { change in
                switch change {
                case .initial(let s), .update(let s, _, _, _, _, _): publish(s.freeze())
                }
            }
        }
    }

    private var empty: SectionedResults<Key, ResultType> {
        let keyPath = sectionKeyPath
        return Results<ResultType>(realm: nil, query: StoreQuery(), objectType: ResultType.self, values: nil)
            ._sectionedUnsorted(by: { $0[keyPath: keyPath] }, owner: nil, kind: "")
    }
}
