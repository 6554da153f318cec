import Foundation
internal import StrataCore

extension Map: RealmKeyedCollection {
    /// The map's values as live results, in key order: for a map of objects, the objects its
    /// values link to (nil values skipped), queried, sorted and aggregated by the store; empty
    /// results after reporting the violation when the map is unmanaged.
    var valueResults: Results<Value> {
        guard let owner else {
            return Realm.violation(
                "This method may only be called on RLMDictionary instances retrieved from an RLMRealm",
                fallback: Results.empty)
        }
        if let optional = Value.self as? _OptionalObjectValue.Type {
            return Results(
                realm: owner.realm, query: StoreQuery().restricted(to: owner.querySource),
                objectType: optional.wrappedObjectType, values: nil)
        }
        return Results(values: _ValueResults(owner: owner, kind: .map))
    }

    /// The values matching `predicateFormat`, with the value named `self`:
    /// `scores.filter("self > %@", 10)`.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Value> {
        valueResults.filter(predicateFormat, arguments: args)
    }

    /// The values for which `isIncluded` holds: `scores.where { $0 > 10 }`.
    public func `where`(_ isIncluded: (Query<Value>) -> Query<Bool>) -> Results<Value> {
        valueResults.where(isIncluded)
    }

    /// The values sorted, smallest first when `ascending` (nulls first).
    public func sorted(ascending: Bool = true) -> Results<Value> {
        valueResults.sorted(byKeyPath: "self", ascending: ascending)
    }

    /// The values sorted by `keyPath`, which names the value: `"self"`.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Value> {
        valueResults.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The values sorted by one descriptor on `self`.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Value> where S.Element == SortDescriptor {
        valueResults.sorted(by: sortDescriptors)
    }

    /// The values keeping the first of each run of equal values.
    public func distinct() -> Results<Value> {
        valueResults.distinct(by: ["self"])
    }

    /// The smallest value (`property` is `"self"`), nil when there is none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        valueResults.min(ofProperty: property)
    }

    /// The largest value (`property` is `"self"`), nil when there is none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        valueResults.max(ofProperty: property)
    }

    /// The sum of the values (`property` is `"self"`).
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        valueResults.sum(ofProperty: property)
    }

    /// The average of the values (`property` is `"self"`), nil when there are none.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        valueResults.average(ofProperty: property)
    }

    /// The value for the key `key`, nil when there is none.
    public func value(forKey key: String) -> Any? {
        self[Key(_strataMapKey: key)].map { $0 as Any }
    }

    /// The value for the key `keyPath` (a map key; no path through the value).
    public func value(forKeyPath keyPath: String) -> Any? {
        value(forKey: keyPath)
    }

    /// Sets the value for the key `key` (inside a write transaction when managed); nil removes
    /// the entry. A value of another type is reported through `Realm.violationHandler`.
    public func setValue(_ value: Any?, forKey key: String) {
        let mapKey = Key(_strataMapKey: key)
        guard let value, !(value is NSNull) else { return removeObject(for: mapKey) }
        guard let typed = value as? Value else {
            return Realm.violation(
                "Cannot set a \(type(of: value)) in a Map of \(Value.self) values (key '\(key)').", fallback: ())
        }
        updateValue(typed, forKey: mapKey)
    }
}

extension Map where Value: MinMaxType {
    /// The smallest value, nil when there is none (nulls do not count).
    public func min() -> Value? { _ValueAggregate.extreme(values, larger: false) }
    /// The largest value, nil when there is none (nulls do not count).
    public func max() -> Value? { _ValueAggregate.extreme(values, larger: true) }
}

extension Map where Value: AddableType & AdditiveArithmetic {
    /// The sum of the values.
    public func sum() -> Value { _ValueAggregate.sum(values) }
}

extension Map {
    /// The sum of the values of a map of optionals, nulls skipped (zero when there are none).
    public func sum<Wrapped: AddableType & AdditiveArithmetic & _PropertyValueConvertible>() -> Wrapped
    where Value == Wrapped? {
        _ValueAggregate.sum(values)
    }
}

extension Map where Value: AddableType {
    /// The average of the values, nil when there are none.
    public func average<T: BinaryFloatingPoint>() -> T? { _ValueAggregate.average(values) }
}
