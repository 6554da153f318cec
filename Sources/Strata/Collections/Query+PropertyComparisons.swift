internal import StrataQuery

/// Comparisons of two properties of the same object in `where { }`, as RealmSwift has them:
/// `$0.spent > $0.budget`, `$0.name == $0.nickname`.
extension Query where T: _PropertyValueEncodable {
    /// Both properties hold equal values.
    public static func == (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.equal, to: rhs) }
    /// The properties hold different values.
    public static func != (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.notEqual, to: rhs) }
}

extension Query where T: _PropertyValueEncodable & Comparable {
    /// The left property's value is less than the right one's.
    public static func < (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.lessThan, to: rhs) }
    /// The left property's value is at most the right one's.
    public static func <= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.lessThanOrEqual, to: rhs) }
    /// The left property's value is greater than the right one's.
    public static func > (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.greaterThan, to: rhs) }
    /// The left property's value is at least the right one's.
    public static func >= (lhs: Query, rhs: Query) -> Query<Bool> { lhs.compare(.greaterThanOrEqual, to: rhs) }
}

extension Query {
    /// `self op other`, both key paths of the queried object.
    func compare(_ op: QueryOperator, to other: Query) -> Query<Bool> {
        let comparison = QueryComparison(
            .keyPath(path), op, .keyPath(other.path),
            quantifier: throughCollection || other.throughCollection ? .any : nil)
        return Query<Bool>(path: [], node: .comparison(comparison), context: context)
    }
}
