import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// A type-safe query expression, built inside `Results.where { }` from key paths of the model:
///
/// ```swift
/// let puppies = realm.objects(Dog.self).where { $0.age < 2 && $0.name.starts(with: "B") }
/// let owners = realm.objects(Person.self).where { $0.dogs.name == "Rex" }   // ANY dog named Rex
/// ```
///
/// Each property access names a stored property (checked by the compiler through the generated
/// key-path table); comparisons build the same predicate `filter("...")` parses, so both run on
/// the same engine and use the same indexes.
///
/// ## Concurrency
/// A value type used while building one query; not meant to be shared.
@dynamicMemberLookup
public struct Query<T> {
    let path: [String]
    let node: QueryPredicate?
    let context: QueryContext
    /// Whether the path went through a collection (comparisons become `ANY`).
    let throughCollection: Bool
    /// What subqueries, aggregates and typed accessors add to a key path (``QueryExtras``); one
    /// stored field of a type of this module, so that instantiating `Query<T>` resolves one field
    /// type more, not one per addition.
    var extras = QueryExtras()
    /// See ``QueryExtras/collectionPrefix``.
    var collectionPrefix: [String]? {
        get { extras.collectionPrefix }
        set { extras.collectionPrefix = newValue }
    }
    /// See ``QueryExtras/operand``.
    var operand: QueryOperand? {
        get { extras.operand }
        set { extras.operand = newValue }
    }
    /// See ``QueryExtras/subquery``.
    var subquery: QuerySubquery? {
        get { extras.subquery }
        set { extras.subquery = newValue }
    }
    /// See ``QueryExtras/anyValueType``.
    var anyValueType: String? {
        get { extras.anyValueType }
        set { extras.anyValueType = newValue }
    }

    init(path: [String], node: QueryPredicate?, context: QueryContext, throughCollection: Bool = false) {
        self.path = path
        self.node = node
        self.context = context
        self.throughCollection = throughCollection
    }

    func member<V>(_ name: String?, collection: Bool = false) -> Query<V> {
        guard let name else {
            context.error = "a key path in where { } is not a persisted property"
            return Query<V>(path: path + ["?"], node: nil, context: context)
        }
        var member = Query<V>(
            path: path + [name], node: nil, context: context, throughCollection: throughCollection || collection)
        member.collectionPrefix = collectionPrefix ?? (collection ? path + [name] : nil)
        return member
    }

    /// A property of the object.
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        let property = queryProperty(T.self, keyPath)
        return member(property?.name, collection: isQueryCollection(property))
    }

    /// A property of an optional linked object (`$0.favoriteToy.name`).
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == O? {
        let property = queryProperty(O.self, keyPath)
        return member(property?.name, collection: isQueryCollection(property))
    }

    /// A property of the objects of a list (`$0.dogs.name == "Rex"`: any dog named Rex).
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == List<O> {
        member(propertyName(O.self, keyPath), collection: true)
    }

    /// A property of the objects of a set.
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V> where T == MutableSet<O> {
        member(propertyName(O.self, keyPath), collection: true)
    }

    func compare(_ op: QueryOperator, _ value: Any?, options: QueryStringOptions = []) -> Query<Bool> {
        let index = context.add(value)
        let comparison = QueryComparison(
            operand ?? .keyPath(path), op, .argument(index: index), options: options,
            quantifier: throughCollection && operand == nil ? .any : nil)
        var node = QueryPredicate.comparison(comparison)
        if let anyValueType { node = typed(node, op, value, anyValueType) }
        var result = Query<Bool>(path: [], node: node, context: context)
        result.collectionPrefix = operand == nil ? collectionPrefix : nil
        return result
    }

    var predicate: QueryPredicate {
        if let node { return node }
        // A Bool property used on its own: `$0.isDone`.
        let index = context.add(true)
        return .comparison(
            QueryComparison(.keyPath(path), .equal, .argument(index: index), quantifier: throughCollection ? .any : nil)
        )
    }
}

func propertyName<Root: ObjectBase>(_ root: Root.Type, _ keyPath: AnyKeyPath) -> String? {
    queryProperty(root, keyPath)?.name
}

/// The persisted property of `root` that `keyPath` names (nil when it names none). The class's
/// conformance comes from the classes realms have bound (``KnownModels``), so that a query's
/// first key path does not make the runtime scan for it.
func queryProperty<Root: ObjectBase>(_ root: Root.Type, _ keyPath: AnyKeyPath) -> Property? {
    KnownModels.shared.provider(for: root)?.strataProperty(for: keyPath)
}

/// Whether `property` is a list, a set or linking objects (``_QueryCollectionMarker``'s types):
/// comparisons through it take `ANY`. Read from the schema rather than asked of the runtime
/// (`V.self is _QueryCollectionMarker.Type` scanned the conformance records the first time a
/// query used a property of each value type).
func isQueryCollection(_ property: Property?) -> Bool {
    guard let property else { return false }
    return property.collection == .list || property.collection == .set || property.type == .linkingObjects
}

// MARK: Comparisons

extension Query where T: _PropertyValueEncodable {
    /// Equal to `value`.
    public static func == (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.equal, rhs) }
    /// Not equal to `value`.
    public static func != (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.notEqual, rhs) }
    /// One of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        compare(.in, Array(values).map { $0 as Any })
    }
}

extension Query where T: _PropertyValueEncodable & Comparable {
    /// Less than the value.
    public static func < (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.lessThan, rhs) }
    /// At most the value.
    public static func <= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.lessThanOrEqual, rhs) }
    /// Greater than the value.
    public static func > (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.greaterThan, rhs) }
    /// At least the value.
    public static func >= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.greaterThanOrEqual, rhs) }
    /// Between `range.lowerBound` and `range.upperBound`, both included.
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        compare(.between, [range.lowerBound as Any, range.upperBound as Any])
    }
}

extension Query {
    /// Equal to `value` for optional properties (`$0.breed == nil`, `$0.breed == "Lab"`).
    public static func == <W: _PropertyValueEncodable>(lhs: Query, rhs: W?) -> Query<Bool> where T == W? {
        lhs.compare(.equal, rhs)
    }
    /// Not equal to `value` for optional properties.
    public static func != <W: _PropertyValueEncodable>(lhs: Query, rhs: W?) -> Query<Bool> where T == W? {
        lhs.compare(.notEqual, rhs)
    }
    /// Less than the value.
    public static func < <W: _PropertyValueEncodable & Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T == W? {
        lhs.compare(.lessThan, rhs)
    }
    /// At most the value.
    public static func <= <W: _PropertyValueEncodable & Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T == W? {
        lhs.compare(.lessThanOrEqual, rhs)
    }
    /// Greater than the value.
    public static func > <W: _PropertyValueEncodable & Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T == W? {
        lhs.compare(.greaterThan, rhs)
    }
    /// At least the value.
    public static func >= <W: _PropertyValueEncodable & Comparable>(lhs: Query, rhs: W) -> Query<Bool> where T == W? {
        lhs.compare(.greaterThanOrEqual, rhs)
    }
}

extension Query where T: ObjectBase {
    /// Links to `object` (a managed object).
    public static func == (lhs: Query, rhs: T?) -> Query<Bool> { lhs.compare(.equal, rhs) }
    /// Does not link to `object`.
    public static func != (lhs: Query, rhs: T?) -> Query<Bool> { lhs.compare(.notEqual, rhs) }
}

extension Query where T == String {
    /// Starts with `prefix`; `options` `[.caseInsensitive, .diacriticInsensitive]` as in Realm.
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, prefix, options: options.query)
    }
    /// Ends with `suffix`.
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, suffix, options: options.query)
    }
    /// Contains `substring`.
    public func contains(_ substring: String, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, substring, options: options.query)
    }
    /// Matches `pattern` with `?` (one character) and `*` (any run).
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, pattern, options: caseInsensitive ? .caseInsensitive : [])
    }
    /// Equal ignoring case/diacritics as `options` say.
    public func equals(_ value: String, options: StringOptions) -> Query<Bool> {
        compare(.equal, value, options: options.query)
    }
}

extension Query where T == String? {
    /// Starts with `prefix`.
    public func starts(with prefix: String, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, prefix, options: options.query)
    }
    /// Ends with `suffix`.
    public func ends(with suffix: String, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, suffix, options: options.query)
    }
    /// Contains `substring`.
    public func contains(_ substring: String, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, substring, options: options.query)
    }
}

extension Query where T: _QueryCollectionMarker {
    /// The number of elements (`$0.dogs.count > 2`); after `where { }`, the number of elements
    /// that match it (`$0.dogs.where { $0.age > 3 }.count > 1`).
    public var count: Query<Int> {
        if let subquery {
            var count = Query<Int>(path: path, node: nil, context: context)
            count.operand = .subqueryCount(subquery)
            return count
        }
        return Query<Int>(path: path + ["@count"], node: nil, context: context)
    }
}

extension Query where T == Bool {
    /// Both hold.
    public static func && (lhs: Query, rhs: Query) -> Query {
        var result = Query(path: [], node: .and([lhs.predicate, rhs.predicate]), context: lhs.context)
        result.collectionPrefix = lhs.sharedCollection(with: rhs)
        return result
    }
    /// Either holds.
    public static func || (lhs: Query, rhs: Query) -> Query {
        var result = Query(path: [], node: .or([lhs.predicate, rhs.predicate]), context: lhs.context)
        result.collectionPrefix = lhs.sharedCollection(with: rhs)
        return result
    }
    /// Does not hold.
    public static prefix func ! (q: Query) -> Query {
        var result = Query(path: [], node: .not(q.predicate), context: q.context)
        result.collectionPrefix = q.collectionPrefix
        return result
    }
}

extension Results {
    /// The objects for which `isIncluded` holds, as a type-safe query:
    /// `dogs.where { $0.age > 3 && $0.name.starts(with: "B") }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        guard let realm else { return self }
        if let values {
            let context = QueryContext()
            let q = isIncluded(Query<Element>(path: [], node: nil, context: context))
            do {
                if let error = context.error { throw Realm.Error(.invalidQuery, error) }
                return try filterValues(values, q.predicate.rewritingCounts(), context.arguments.map { $0 as Any })
            } catch {
                return Realm.violation("Invalid where query on \(Element.self): \(error)", fallback: self)
            }
        }
        let context = QueryContext()
        let q = isIncluded(Query<Element>(path: [], node: nil, context: context))
        if let error = context.error {
            return Realm.violation("Invalid where query on \(Element.self): \(error)", fallback: self)
        }
        var predicate = q.predicate
        // Key paths of `count`, map keys, values and subscripts are written `dogs.@count`,
        // `labels.@keys`, ...; the parser's form is an aggregate.
        predicate = predicate.rewritingCounts()
        do {
            let args = try context.arguments.map { try realm.queryArgument($0 as Any) }
            return with(realm: realm, query: query.filtered(by: predicate, arguments: args))
        } catch {
            return Realm.violation("Invalid where query on \(Element.self): \(error)", fallback: self)
        }
    }
}

extension QueryPredicate {
    func rewritingCounts() -> QueryPredicate {
        switch self {
        case .and(let ps): return .and(ps.map { $0.rewritingCounts() })
        case .or(let ps): return .or(ps.map { $0.rewritingCounts() })
        case .not(let p): return .not(p.rewritingCounts())
        case .comparison(var c):
            if case .keyPath(let path, nil) = c.left, let last = path.last {
                let base = Array(path.dropLast())
                if last == "@count" {
                    c.left = .keyPath(base, aggregate: .count)
                    c.quantifier = nil
                } else if last == "@keys" {
                    c.left = .keyPath(base, aggregate: .keys)
                } else if last == "@values" {
                    c.left = .keyPath(base, aggregate: .values)
                } else if last.hasPrefix(Query<Int>.mapKeyMarker) {
                    c.left = .keyPath(base, aggregate: .element(String(last.dropFirst())))
                }
            }
            return .comparison(c)
        default: return self
        }
    }
}
