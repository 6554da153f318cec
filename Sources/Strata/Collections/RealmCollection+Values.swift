import Foundation

// Sorting, distinct and aggregates of collections of values, as RealmSwift has them:
// `player.scores.sorted(ascending: false)`, `tags.distinct()`, `scores.sum()`,
// `scores.where { $0 > 10 }.average()`. Sorting and distinct give live `Results` (of a managed
// list or set; an unmanaged one is reported as for any query). The aggregates read the
// elements once and skip nulls; they work on unmanaged collections too.

extension RealmCollection where Element: SortableType {
    /// The values sorted, smallest first (`ascending: false`: largest first); nulls sort first.
    public func sorted(ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: "self", ascending: ascending)
    }

    /// The values keeping only the first of each run of equal values, in order.
    public func distinct() -> Results<Element> {
        distinct(by: ["self"])
    }
}

extension RealmCollection where Element: MinMaxType {
    /// The smallest value, nil when there is none (nulls do not count).
    public func min() -> Element? {
        _ValueAggregate.extreme(self, larger: false)
    }

    /// The largest value, nil when there is none (nulls do not count).
    public func max() -> Element? {
        _ValueAggregate.extreme(self, larger: true)
    }
}

extension RealmCollection where Element: AddableType & AdditiveArithmetic {
    /// The sum of the values (zero when there are none).
    public func sum() -> Element {
        _ValueAggregate.sum(self)
    }
}

extension RealmCollection {
    /// The sum of the values of a collection of optionals, nulls skipped (zero when there are
    /// none): `let total: Int = maybeScores.sum()`.
    public func sum<Wrapped: AddableType & AdditiveArithmetic & _PropertyValueConvertible>() -> Wrapped
    where Element == Wrapped? {
        _ValueAggregate.sum(self)
    }
}

extension RealmCollection where Element: AddableType {
    /// The average of the values, nil when there are none (nulls do not count):
    /// `let mean: Double? = scores.average()`.
    public func average<T: BinaryFloatingPoint>() -> T? {
        _ValueAggregate.average(self)
    }
}

extension RealmCollection where Element == Decimal128 {
    /// The average of the values, nil when there are none.
    public func average() -> Decimal128? {
        _ValueAggregate.decimalAverage(self)
    }
}
