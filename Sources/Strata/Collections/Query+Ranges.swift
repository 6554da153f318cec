internal import StrataQuery

/// Ranges and `notEquals` in `where { }`, as RealmSwift has them: `$0.age.contains(1..<5)`
/// (the upper bound excluded), `$0.age.contains(1...5)` on optional properties, a collection's
/// values all in a range (`$0.scores.contains(1..<5)`), `$0.name.notEquals("rex", options: .caseInsensitive)`.
extension Query where T: _PropertyValueEncodable & Comparable {
    /// At least `range.lowerBound` and less than `range.upperBound`.
    public func contains(_ range: Range<T>) -> Query<Bool> {
        compare(.greaterThanOrEqual, range.lowerBound) && compare(.lessThan, range.upperBound)
    }
}

extension Query {
    /// An optional property is at least `range.lowerBound` and less than `range.upperBound`
    /// (nil is in no range).
    public func contains<W: _PropertyValueEncodable & Comparable>(_ range: Range<W>) -> Query<Bool> where T == W? {
        compare(.greaterThanOrEqual, range.lowerBound) && compare(.lessThan, range.upperBound)
    }

    /// An optional property is between `range.lowerBound` and `range.upperBound`, both included
    /// (nil is in no range).
    public func contains<W: _PropertyValueEncodable & Comparable>(_ range: ClosedRange<W>) -> Query<Bool>
    where T == W? {
        compare(.between, [range.lowerBound as Any, range.upperBound as Any])
    }
}

extension Query where T: _QueryCollectionValues, T._StrataQueryElement: _PropertyValueEncodable & Comparable {
    /// Every value of the collection is at least `range.lowerBound` and less than
    /// `range.upperBound` (its smallest and largest values are; an empty collection matches none).
    public func contains(_ range: Range<T._StrataQueryElement>) -> Query<Bool> {
        let low: Query<T._StrataQueryElement> = collectionAggregate(.min(nil))
        let high: Query<T._StrataQueryElement> = collectionAggregate(.max(nil))
        return low.compare(.greaterThanOrEqual, range.lowerBound) && high.compare(.lessThan, range.upperBound)
    }

    /// Every value of the collection is between `range.lowerBound` and `range.upperBound`, both
    /// included (an empty collection matches none).
    public func contains(_ range: ClosedRange<T._StrataQueryElement>) -> Query<Bool> {
        let low: Query<T._StrataQueryElement> = collectionAggregate(.min(nil))
        let high: Query<T._StrataQueryElement> = collectionAggregate(.max(nil))
        return low.compare(.greaterThanOrEqual, range.lowerBound) && high.compare(.lessThanOrEqual, range.upperBound)
    }
}

extension Query where T == String {
    /// Not equal to `value`, ignoring case and diacritics as `options` say.
    public func notEquals(_ value: String, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, value, options: options.query)
    }
}

extension Query where T == String? {
    /// Not equal to `value`, ignoring case and diacritics as `options` say (nil is not equal to
    /// any string).
    public func notEquals(_ value: String?, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, value, options: options.query)
    }

    /// Equal to `value`, ignoring case and diacritics as `options` say.
    public func equals(_ value: String?, options: StringOptions) -> Query<Bool> {
        compare(.equal, value, options: options.query)
    }
}
