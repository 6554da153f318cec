internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// The objects of one class that match a query, in a realm, or the values of a managed list or
/// set of values filtered, sorted or made distinct: lazy (nothing is read until used) and live
/// (each access reflects the realm's current version, including the current write).
///
/// ```swift
/// let dogs = realm.objects(Dog.self)
/// let puppies = dogs.where { $0.age < 2 }.sorted(byKeyPath: "name")
/// print(puppies.count, puppies.first?.name ?? "-")
///
/// let scores = player.scores.sorted(ascending: false)   // Results<Int> of a List<Int>
/// print(scores.first ?? 0, player.scores.where { $0 > 10 }.count)
/// ```
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. Frozen results (`freeze()`) may be read from any
/// thread, also concurrently.
public struct Results<Element: RealmCollectionValue>: RandomAccessCollection, CustomStringConvertible {
    /// The realm the results read from.
    public let realm: Realm?
    /// The query of object results (unused by results of values).
    let query: StoreQuery
    let cache: ResultsCache
    /// The class of object results; nil for results of values.
    let objectType: ObjectBase.Type?
    /// The collection results of values read and what is applied to it; nil for object results.
    let values: _ValueResults?
    /// The class of `DynamicObject` results (`Realm.dynamicObjects(_:)`), which `objectType`
    /// cannot name; nil otherwise.
    let dynamicBinding: TableBinding?

    init(
        realm: Realm?, query: StoreQuery, objectType: ObjectBase.Type?, values: _ValueResults?,
        dynamicBinding: TableBinding? = nil
    ) {
        self.realm = realm
        self.query = query
        self.cache = ResultsCache()
        self.objectType = objectType
        self.values = values
        self.dynamicBinding = dynamicBinding
    }

    /// The kind of `Results` of `realm`'s objects of class `Element` that match `query`.
    init(realm: Realm?, query: StoreQuery) where Element: ObjectBase {
        self.init(realm: realm, query: query, objectType: Element.self, values: nil)
    }

    /// Results of the same kind as these, of `query` in `realm`.
    func with(realm: Realm?, query: StoreQuery) -> Results<Element> {
        Results(realm: realm, query: query, objectType: objectType, values: values, dynamicBinding: dynamicBinding)
    }

    var binding: TableBinding? {
        if let dynamicBinding { return dynamicBinding }
        guard let objectType else { return nil }
        return realm?.binding(for: objectType)
    }

    /// The matching object keys, evaluated once per realm version.
    func keys() -> [Int64] {
        guard let realm else { return [] }
        realm.noteTableRead(objectType)
        if realm.isFrozen { return frozenKeys(realm)._withUnsafeGuaranteedRef { $0.keys } }
        guard realm.checkThread(), let binding else { return [] }
        if cache.stamp == realm.stamp, let keys = cache.keys { return keys }
        let keys = evaluate(realm, binding)
        cache.keys = keys
        cache.stamp = realm.stamp
        return keys
    }

    private func evaluate(_ realm: Realm, _ binding: TableBinding) -> [Int64] {
        do {
            return try query.evaluate(in: realm.current(), table: binding.table)
        } catch {
            return realm.readFailed(error, "Invalid query on '\(binding.className)': \(error)", fallback: [])
        }
    }

    /// The keys and binding of frozen results, evaluated by the first reader and shared,
    /// immutable, by every later one (unretained: `cache` owns them).
    @inline(__always)
    private func frozenKeys(_ realm: Realm) -> Unmanaged<FrozenKeys> {
        cache.frozen(or: {
            let binding = dynamicBinding ?? objectType.flatMap { realm.binding(for: $0) }
            return FrozenKeys(
                binding: binding, keys: binding.map { evaluate(realm, $0) } ?? [], txn: realm.current(), realm: realm)
        })
    }

    /// The position of the first object (0).
    public var startIndex: Int { 0 }
    /// The number of objects; equals `count`.
    public var endIndex: Int {
        if let values { return valueElements(values).count }
        return keys().count
    }

    /// The number of matching objects (or values).
    public var count: Int {
        guard realm?.checkThread() ?? true else { return 0 }
        realm?.noteTableRead(objectType)
        if let values { return valueElements(values).count }
        if query.predicate == nil, query.distinctKeyPaths.isEmpty, query.source == .table, let realm, let binding {
            do {
                return try realm.current().count(binding.table)
            } catch {
                return realm.readFailed(
                    error, "cannot count '\(binding.className)' objects in '\(realm.file.path)': \(error)", fallback: 0)
            }
        }
        // One fixed-width comparison (`age > 50`) of a live realm whose keys are not evaluated
        // yet: counted from the rows' bytes, no keys collected. Anything else, or an error,
        // takes `keys()` (which reports the error).
        if query.distinctKeyPaths.isEmpty, let realm, !realm.isFrozen, let binding,
            cache.stamp != realm.stamp || cache.keys == nil,
            let n = try? query.fastCount(in: realm.current(), table: binding.table)
        {
            return n
        }
        return keys().count
    }

    /// Iterates the objects (or values) matching now (the keys are evaluated once).
    public func makeIterator() -> ResultsIterator<Element> {
        if let values { return ResultsIterator(values: valueElements(values)) }
        return ResultsIterator(realm: realm, binding: binding, keys: keys())
    }

    /// The object (or value) at `position`.
    public subscript(position: Int) -> Element {
        if let values { return valueElement(values, position) }
        if realm?.isFrozen == true { return frozenElement(position) }
        let k = keys()
        precondition(
            position >= 0 && position < k.count, "Index \(position) is out of bounds (must be less than \(k.count)).")
        return _resultsElement(realm!.object(binding!, key: k[position]), as: Element.self)!
    }

    /// `self[position]` of frozen results, which several threads may read at once: it reads
    /// only immutable state and retains nothing they share but what the object keeps.
    private func frozenElement(_ position: Int) -> Element {
        realm?.noteTableRead(objectType)
        return frozenKeys(realm!)._withUnsafeGuaranteedRef { f in
            precondition(
                position >= 0 && position < f.keys.count,
                "Index \(position) is out of bounds (must be less than \(f.keys.count)).")
            let key = f.keys[position]
            return _resultsElement(realm!.object(f.binding!, key: key, frozenRow: f.row(key)), as: Element.self)!
        }
    }

    /// The first object, or nil when there is none.
    public var first: Element? { isEmpty ? nil : self[0] }
    /// The last object, or nil when there is none.
    public var last: Element? {
        if let values { return valueElements(values).last }
        let n = keys().count
        return n == 0 ? nil : self[n - 1]
    }

    /// The results with `predicate` added (ANDed with the current one), in Realm's query
    /// language: `filter("age > %@ AND name BEGINSWITH %@", 3, "R")`. `SORT(...)`,
    /// `DISTINCT(...)` and `LIMIT(n)` after the filter order and limit the results.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        filter(predicateFormat, arguments: args)
    }

    /// `filter(_:_:)` with the arguments in an array.
    public func filter(_ predicateFormat: String, arguments args: [Any]) -> Results<Element> {
        guard let realm else { return self }
        if let values { return filterValues(values, predicateFormat, args) }
        do {
            let parsed = try ParsedQuery.parse(predicateFormat)
            try parsed.validateArgumentCount(args.count)
            let coreArgs = try args.map { try realm.queryArgument($0) }
            return with(
                realm: realm,
                query: query.filtered(by: parsed.predicate, arguments: coreArgs).ordered(by: parsed.ordering))
        } catch {
            return Realm.violation(
                "Invalid predicate '\(predicateFormat)': \(error)",
                fallback: with(realm: realm, query: query.filtered(by: .falsePredicate, arguments: [])))
        }
    }

    /// The results sorted by the property `keyPath` names (`"name"`, `"owner.name"`).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        guard let realm else { return self }
        if let values { return sortValues(values, Array(descriptors)) }
        return with(realm: realm, query: query.sorted(by: descriptors.map { ($0.keyPath, $0.ascending) }))
    }

    /// The results keeping only the first object of each distinct combination of values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        guard let realm else { return self }
        if let values { return distinctValues(values, Array(keyPaths)) }
        return with(realm: realm, query: query.distinct(by: Array(keyPaths)))
    }

    /// The objects as an array (evaluated now).
    var objects: [Element] { indices.map { self[$0] } }

    /// A short description with the count.
    public var description: String { "Results<\(Element.self)>(count: \(count))" }

    /// The values of results of values, or "self" after reporting a property name they do not
    /// have.
    private func valueProperty(_ property: String) -> Bool {
        property == "self"
            || Realm.violation(
                "Invalid property name '\(property)' for a collection of \(Element.self) values: name the values as 'self'.",
                fallback: false)
    }

    // MARK: Aggregates

    /// One pass over the matching rows (no object is created): the values of `property`, folded.
    /// Calls `body` with each non-null value of `property` among the objects. `body` does not
    /// escape, so the accumulators it captures take no run-time exclusivity check per row.
    private func fold(_ property: String, _ body: (StoreValue) -> Void) {
        guard let realm, let binding else { return }
        guard let i = binding.propertyIndexByName[property] else {
            return Realm.violation(
                "Invalid property name '\(property)' for class '\(binding.className)'.", fallback: ())
        }
        let c = binding.columns[i]
        let column = binding.table.columns[c]
        let mode = column.collection == .none ? column.type : .mixed
        func visit(_ row: RowReader) {
            switch mode {
            case .int: if let v = row.int(c) { body(.int(v)) }
            case .double: if let v = row.double(c) { body(.double(v)) }
            default: let v = row.value(c); if !v.isNull { body(v) }
            }
        }
        do {
            if query.distinctKeyPaths.isEmpty {
                try query.forEachMatch(in: realm.current(), table: binding.table) { visit($0) }
            } else {
                let txn = realm.current()
                for k in keys() { if let row = try txn.row(binding.table, key: k) { visit(row) } }
            }
        } catch {
            Realm.violation("Invalid query on '\(binding.className)': \(error)", fallback: ())
        }
    }

    private func extreme<T: _PropertyValueConvertible>(_ property: String, larger: Bool) -> T? {
        var best: StoreValue?
        var bestKey: [UInt8] = []
        fold(property) { v in
            let k = IndexKey.encodeForOrdering(v)
            if best == nil || (larger ? bestKey.lexicographicallyPrecedes(k) : k.lexicographicallyPrecedes(bestKey)) {
                best = v
                bestKey = k
            }
        }
        return best.flatMap(propertyScalar).flatMap { T._strataFromPropertyValue($0) }
    }

    /// The smallest value of `property` among the objects, nil when there are none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        if values != nil { return valueProperty(property) ? _valueExtreme(larger: false) : nil }
        return extreme(property, larger: false)
    }

    /// The largest value of `property` among the objects, nil when there are none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        if values != nil { return valueProperty(property) ? _valueExtreme(larger: true) : nil }
        return extreme(property, larger: true)
    }

    /// The sum of `property` (an Int, Float, Double or Decimal128 property) over the objects.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        if let realm, !realm.checkThread() { return .zero }
        if values != nil { return valueProperty(property) ? _valueSum() : .zero }
        var ints: Int64 = 0
        var doubles = 0.0
        var isInt = true
        var decimals: Decimal128?
        // One fixed-width comparison (or none) and an Int or Double column: summed from the
        // rows' bytes by the store. Anything else, or an error, takes the general path (which
        // reports the error).
        if query.distinctKeyPaths.isEmpty, let realm, let binding,
            let i = binding.propertyIndexByName[property],
            let fast = try? query.fastSum(in: realm.current(), table: binding.table, column: binding.columns[i])
        {
            (ints, doubles) = (fast.ints, fast.doubles)
            isInt = binding.table.columns[binding.columns[i]].type == .int || !fast.sawValue
        } else {
            fold(property) { v in
                switch v {
                case .int(let i): ints &+= i
                case .double(let d): doubles += d; isInt = false
                case .float(let f): doubles += Double(f); isInt = false
                case .decimal128(let b): decimals = (decimals ?? Decimal128()) + (Decimal128(strataBytes: b) ?? .nan)
                default: break
                }
            }
        }
        if let decimals, let t = T._strataFromPropertyValue(.decimal128(decimals)) { return t }
        let value: PropertyValue = isInt ? .int(ints) : .double(doubles)
        if let t = T._strataFromPropertyValue(value) { return t }
        if case .int(let i) = value, let t = T._strataFromPropertyValue(.double(Double(i))) { return t }
        if case .double(let d) = value, let t = T._strataFromPropertyValue(.float(Float(d))) { return t }
        return .zero
    }

    /// The average of a `Decimal128` property over the objects, nil when there are none.
    public func average(ofProperty property: String) -> Decimal128? {
        if values != nil { return valueProperty(property) ? _valueAverage() : nil }
        var total = Decimal128()
        var n = 0
        fold(property) { v in
            if case .decimal128(let b) = v {
                total += Decimal128(strataBytes: b) ?? .nan
                n += 1
            }
        }
        return n == 0 ? nil : total / Decimal128(n)
    }

    /// The average of `property` over the objects, nil when there are none.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        if values != nil { return valueProperty(property) ? _valueAverage() : nil }
        var total = 0.0
        var n = 0
        fold(property) { v in
            switch v {
            case .int(let i): total += Double(i); n += 1
            case .double(let d): total += d; n += 1
            case .float(let f): total += Double(f); n += 1
            default: break
            }
        }
        return n == 0 ? nil : T(total / Double(n))
    }
}

extension Realm {
    /// Converts a query argument (`%@`) to the store's form.
    func queryArgument(_ arg: Any) throws -> StoreValue {
        try Realm.queryArgumentValue(arg)
    }

    /// Converts a query argument (`%@`) to the store's form (no realm needed: an object argument
    /// carries its own key).
    static func queryArgumentValue(_ arg: Any) throws -> StoreValue {
        // The scalar types first: casting a value of a Swift type to a class (`as ObjectBase`)
        // makes the runtime look for the value's bridging conformance, a scan of every
        // conformance record the first time per type (0.35M instructions in a query's first
        // `$0.age > 50`).
        switch arg {
        case let v as Int: return .int(Int64(v))
        // Before NSNumber: on Linux an Int64 also casts to NSNumber, and `age > 50` then compared
        // every row's integer with a Double (exact, but the slower mixed comparison).
        case let v as Int64: return .int(v)
        case let v as Int32: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Double: return .double(v)
        case let v as Float: return .float(v)
        case let v as Bool: return .bool(v)
        case let o as ObjectBase:
            guard let s = o._strataManaged else {
                throw Realm.Error(
                    .invalidQuery,
                    "Only managed objects can be compared in queries; add \(type(of: o)) to the realm first.")
            }
            return .link(s.key)
        case let a as [Any]:
            return .list(try a.map(queryArgumentValue))
        case let v as NSNumber:
            // An integer NSNumber stays an integer (its type code is not "f" or "d").
            let code = String(cString: v.objCType)
            return code == "d" || code == "f" ? .double(v.doubleValue) : .int(v.int64Value)
        case let v as _PropertyValueEncodable:
            if let c = coreScalar(v._strataPropertyValue) { return c }
            throw Realm.Error(.invalidQuery, "a \(type(of: arg)) cannot be a query argument")
        case Optional<Any>.none: return .null
        default:
            throw Realm.Error(
                .invalidQuery,
                "a \(type(of: arg)) cannot be a query argument; pass a value of a property type or a managed object")
        }
    }
}
