import Foundation

/// The key-path forms of sorting, distinct, aggregates and `index(matching:)`, as RealmSwift has
/// them: `dogs.sorted(by: \.age)`, `dogs.sum(of: \.age)`. Each key path names one persisted
/// property of `Element`; any other key path is reported through `Realm.violationHandler` (name
/// the property as a string to go through links: `sorted(byKeyPath: "owner.name")`).
extension Results where Element: Object {
    /// The property name of `keyPath`, or "" after reporting the violation.
    private func name(_ keyPath: PartialKeyPath<Element>) -> String {
        Element.strataPropertyNames([keyPath]).first ?? ""
    }

    /// The results sorted by the property `keyPath` names.
    public func sorted<T: Comparable>(by keyPath: KeyPath<Element, T>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: name(keyPath), ascending: ascending)
    }

    /// The results keeping only the first object of each distinct combination of the values of
    /// `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { name($0) })
    }

    /// The smallest value of the property `keyPath` names, nil when there are no objects.
    public func min<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        min(ofProperty: name(keyPath))
    }

    /// The largest value of the property `keyPath` names, nil when there are no objects.
    public func max<T: _PropertyValueConvertible & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        max(ofProperty: name(keyPath))
    }

    /// The sum of the property `keyPath` names (an Int, Float, Double or Decimal128 property).
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T {
        sum(ofProperty: name(keyPath))
    }

    /// The average of the property `keyPath` names, in its own type (an `Int` property's
    /// average is rounded toward zero, as RealmSwift's is), nil when there are no objects.
    public func average<T: _PropertyValueConvertible & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T? {
        guard let mean: Double = average(ofProperty: name(keyPath)) else { return nil }
        if let value = T._strataFromPropertyValue(.double(mean)) { return value }
        if let value = T._strataFromPropertyValue(.float(Float(mean))) { return value }
        return T._strataFromPropertyValue(.int(Int64(mean)))
    }

}

extension Results {
    /// The position of the first object matching `predicateFormat`, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        index(matching: predicateFormat, arguments: args)
    }

    /// `index(matching:_:)` with the arguments in an array.
    func index(matching predicateFormat: String, arguments args: [Any]) -> Int? {
        firstPosition(of: filter(predicateFormat, arguments: args))
    }

    /// The position of the first object for which `isIncluded` holds, or nil.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        firstPosition(of: self.where(isIncluded))
    }

    /// The position in these results of the first object of `matching` (a filter of them).
    private func firstPosition(of matching: Results<Element>) -> Int? {
        if let values {
            // A value matches or not by itself: the first match is the first element equal to it.
            guard let first = matching.first else { return nil }
            return valueElements(values).firstIndex(of: first)
        }
        guard let first = matching.keys().first else { return nil }
        return keys().firstIndex(of: first)
    }
}
