import Foundation
internal import StrataCore

/// The query of an ``ObservedResults`` or ``ObservedSectionedResults`` wrapper, kept by
/// reference so that a view (a struct) can change it: a filter (a query string or a type-safe
/// query, one replacing the other, as in RealmSwift), sort descriptors, and what does not change
/// (the configuration and the observed key paths). Not API.
///
/// ## Concurrency
/// Thread-safe: `lock` guards the changeable parts.
final class ObservedResultsQuery<Element: _ObservedResultsValue>: @unchecked Sendable {
    /// A filter of the wrapper's objects.
    enum Filter {
        case string(String)
        case query((Query<Element>) -> Query<Bool>)
    }

    let configuration: Realm.Configuration
    let keyPaths: [String]?
    private let lock = NSLock()
    // Guarded by `lock`.
    private var filter: Filter?
    private var sort: [SortDescriptor]

    init(configuration: Realm.Configuration?, keyPaths: [String]?, filter: Filter?, sortDescriptors: [SortDescriptor]) {
        self.configuration = configuration ?? Realm.Configuration.defaultConfiguration
        self.keyPaths = keyPaths
        self.filter = filter
        sort = sortDescriptors
    }

    /// The filter, replaced as a whole (setting a query string drops a type-safe query).
    var currentFilter: Filter? {
        get { lock.withLock { filter } }
        set { lock.withLock { filter = newValue } }
    }

    /// The query string, if the filter is one.
    var filterString: String? {
        if case .string(let string) = currentFilter { return string }
        return nil
    }

    /// The type-safe query, if the filter is one.
    var whereQuery: ((Query<Element>) -> Query<Bool>)? {
        if case .query(let query) = currentFilter { return query }
        return nil
    }

    /// The sort descriptors, in order.
    var sortDescriptors: [SortDescriptor] {
        get { lock.withLock { sort } }
        set { lock.withLock { sort = newValue } }
    }
}
