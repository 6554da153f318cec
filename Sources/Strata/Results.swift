import Foundation
import StrataCore
import StrataQuery

/// The objects of one class that match a query, in a realm: lazy (nothing is read until used)
/// and live (each access reflects the realm's current version, including the current write).
///
/// ```swift
/// let dogs = realm.objects(Dog.self)
/// let puppies = dogs.where { $0.age < 2 }.sorted(byKeyPath: "name")
/// print(puppies.count, puppies.first?.name ?? "-")
/// ```
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm.
public struct Results<Element: Object>: RandomAccessCollection, CustomStringConvertible {
    /// The realm the results read from.
    public let realm: Realm?
    let query: CoreQuery
    private let cache: ResultsCache

    init(realm: Realm, query: CoreQuery) {
        self.realm = realm
        self.query = query
        self.cache = ResultsCache()
    }

    var binding: TableBinding? { realm?.binding(for: Element.self) }

    /// The matching object keys, evaluated once per realm version.
    func keys() -> [Int64] {
        guard let realm, let binding else { return [] }
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if cache.stamp == realm.stamp, let keys = cache.keys { return keys }
        let keys: [Int64]
        do {
            keys = try query.evaluate(in: realm.current(), table: binding.table)
        } catch {
            keys = Realm.violation("Invalid query on '\(binding.className)': \(error)", fallback: [])
        }
        cache.keys = keys
        cache.stamp = realm.stamp
        return keys
    }

    /// The position of the first object (0).
    public var startIndex: Int { 0 }
    /// The number of objects; equals `count`.
    public var endIndex: Int { keys().count }

    /// The number of matching objects.
    public var count: Int {
        if query.predicate == nil, query.distinctKeyPaths.isEmpty, let realm, let binding {
            return (try? realm.current().count(binding.table)) ?? 0
        }
        return keys().count
    }

    /// The object at `position`.
    public subscript(position: Int) -> Element {
        let k = keys()
        precondition(position >= 0 && position < k.count, "Index \(position) is out of bounds (must be less than \(k.count)).")
        return realm!.object(binding!, key: k[position]) as! Element
    }

    /// The first object, or nil when there is none.
    public var first: Element? { isEmpty ? nil : self[0] }
    /// The last object, or nil when there is none.
    public var last: Element? { let n = keys().count; return n == 0 ? nil : self[n - 1] }

    /// The results with `predicate` added (ANDed with the current one), in Realm's query
    /// language: `filter("age > %@ AND name BEGINSWITH %@", 3, "R")`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        filter(predicateFormat, arguments: args)
    }

    /// `filter(_:_:)` with the arguments in an array.
    public func filter(_ predicateFormat: String, arguments args: [Any]) -> Results<Element> {
        guard let realm else { return self }
        do {
            let parsed = try ParsedQuery.parse(predicateFormat)
            try parsed.validateArgumentCount(args.count)
            let coreArgs = try args.map { try realm.queryArgument($0) }
            return Results(realm: realm, query: query.filtered(by: parsed.predicate, arguments: coreArgs))
        } catch {
            return Realm.violation("Invalid predicate '\(predicateFormat)': \(error)", fallback: Results(realm: realm, query: query.filtered(by: .falsePredicate, arguments: [])))
        }
    }

    /// The results sorted by the property `keyPath` names (`"name"`, `"owner.name"`).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        guard let realm else { return self }
        return Results(realm: realm, query: query.sorted(by: descriptors.map { ($0.keyPath, $0.ascending) }))
    }

    /// The results keeping only the first object of each distinct combination of values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        guard let realm else { return self }
        return Results(realm: realm, query: query.distinct(by: Array(keyPaths)))
    }

    /// The objects as an array (evaluated now).
    var objects: [Element] { indices.map { self[$0] } }

    /// A short description with the count.
    public var description: String { "Results<\(Element.self)>(count: \(count))" }

    // MARK: Aggregates

    private func numbers(_ property: String) -> [Double] {
        guard let realm, let binding, let i = binding.propertyIndexByName[property] else { return [] }
        let c = binding.columns[i]
        let txn = realm.current()
        var out: [Double] = []
        for k in keys() {
            guard let r = try? txn.row(binding.table, key: k) else { continue }
            switch r.value(c) {
            case .int(let v): out.append(Double(v))
            case .double(let v): out.append(v)
            case .float(let v): out.append(Double(v))
            default: continue
            }
        }
        return out
    }

    private func values(_ property: String) -> [PropertyValue] {
        guard let realm, let binding, let i = binding.propertyIndexByName[property] else { return [] }
        let c = binding.columns[i]
        let txn = realm.current()
        return keys().compactMap { k in
            (try? txn.row(binding.table, key: k)).flatMap { $0 }.map { realm.propertyValue($0.value(c), property: binding.schema.properties[i]) }
        }.filter { if case .null = $0 { false } else { true } }
    }

    /// The smallest value of `property` among the objects, nil when there are none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        values(property).compactMap { T._strataFromPropertyValue($0) }.min()
    }

    /// The largest value of `property` among the objects, nil when there are none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        values(property).compactMap { T._strataFromPropertyValue($0) }.max()
    }

    /// The sum of `property` (an Int, Float or Double property) over the objects.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        values(property).compactMap { T._strataFromPropertyValue($0) }.reduce(.zero, +)
    }

    /// The average of `property` over the objects, nil when there are none.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        let n = numbers(property)
        return n.isEmpty ? nil : T(n.reduce(0, +) / Double(n.count))
    }
}

/// Memoized keys of one `Results` value.
final class ResultsCache {
    /// Frozen results may be read from several threads at once.
    let lock = NSLock()
    var stamp: UInt64 = .max
    var keys: [Int64]?
}

/// A sort key: a property (or a path through to-one links) and a direction.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct SortDescriptor: Sendable, Hashable {
    /// The property, e.g. `"name"` or `"owner.name"`.
    public var keyPath: String
    /// Smallest first when true.
    public var ascending: Bool

    /// A sort by `keyPath`.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

extension Realm {
    /// Converts a query argument (`%@`) to the store's form.
    func queryArgument(_ arg: Any) throws -> CoreValue {
        switch arg {
        case let o as ObjectBase:
            guard let s = o._strataManaged else {
                throw Realm.Error(.invalidQuery, "Only managed objects can be compared in queries; add \(type(of: o)) to the realm first.")
            }
            return .link(s.key)
        case let a as [Any]:
            return .list(try a.map(queryArgument))
        case let v as Int: return .int(Int64(v))
        case let v as Double: return .double(v)
        case let v as Float: return .float(v)
        case let v as Bool: return .bool(v)
        case let v as NSNumber: return .double(v.doubleValue)
        case let v as _PropertyValueEncodable:
            if let c = coreScalar(v._strataPropertyValue) { return c }
            throw Realm.Error(.invalidQuery, "a \(type(of: arg)) cannot be a query argument")
        case Optional<Any>.none: return .null
        default:
            throw Realm.Error(.invalidQuery, "a \(type(of: arg)) cannot be a query argument; pass a value of a property type or a managed object")
        }
    }
}
