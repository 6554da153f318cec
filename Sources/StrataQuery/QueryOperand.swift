/// One side of a comparison.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public indirect enum QueryOperand: Sendable, Equatable, Hashable {
    /// A property, or a path through links and lists: `name` is `["name"]`, `owner.name` is
    /// `["owner", "name"]`. `aggregate` is the collection operator at the end of the path, if any:
    /// `dogs.@count` is `.keyPath(["dogs"], aggregate: .count)`,
    /// `dogs.@avg.age` is `.keyPath(["dogs"], aggregate: .avg("age"))`.
    case keyPath([String], aggregate: QueryAggregate?)
    /// A constant written in the query: `3`, `1.5`, `'Rex'`, `true`, `nil`.
    case literal(QueryLiteral)
    /// A value argument: `%@` (numbered 0, 1, 2, ... in reading order) or `$0`, `$1` (explicit).
    /// `index` is the position in the caller's argument list.
    case argument(index: Int)
    /// `%K`: a key path passed as an argument (a `String` such as `"owner.name"`), substituted when
    /// the engine binds the query. `%K` takes its index from the same sequence as `%@`.
    case keyPathArgument(index: Int)
    /// A list of constants and arguments in braces: `{'Rex', 'Maui'}`, `{1, %@}`. Appears only as
    /// the right side of `IN` and `BETWEEN` (with exactly two elements for `BETWEEN`).
    case list([QueryOperand])
    /// `SUBQUERY(dogs, $d, $d.age > 3).@count` (or `.@size`): the number of elements of the
    /// collection that match the subquery's predicate.
    case subqueryCount(QuerySubquery)

    /// `.keyPath(components, aggregate: nil)`: a key path without a collection operator.
    public static func keyPath(_ components: [String]) -> QueryOperand {
        .keyPath(components, aggregate: nil)
    }

    /// Whether this operand names a property (a key path, or `%K`).
    public var isKeyPath: Bool {
        switch self {
        case .keyPath, .keyPathArgument: return true
        case .literal, .argument, .list, .subqueryCount: return false
        }
    }
}
