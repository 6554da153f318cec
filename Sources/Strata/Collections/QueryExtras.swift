internal import StrataQuery

/// The parts of a `Query` that subqueries, aggregates and typed accessors use; empty for a plain
/// key path. Not API.
struct QueryExtras {
    /// The path up to the first collection it went through (`["dogs"]` for `$0.dogs.age`): what
    /// a subquery (`($0.dogs.age > 3).count`) and an aggregate (`$0.dogs.age.avg`) range over.
    /// For a `Query<Bool>`, the collection all its comparisons went through, if they share one.
    var collectionPrefix: [String]? = nil
    /// The left side of comparisons when it is not the path itself: a subquery count or an
    /// aggregate.
    var operand: QueryOperand? = nil
    /// `$0.dogs.where { ... }`: the subquery its `count` counts.
    var subquery: QuerySubquery? = nil
    /// `$0.value.intValue`: the `@type` name an `AnyRealmValue` must have for the typed accessor
    /// to hold a value.
    var anyValueType: String? = nil
}
