/// A comparison operator. Raw values are the canonical spellings that `description` prints.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryOperator: String, Sendable, Equatable, Hashable, CaseIterable {
    /// `==` or `=`.
    case equal = "=="
    /// `!=` or `<>`.
    case notEqual = "!="
    /// `<`.
    case lessThan = "<"
    /// `<=` or `=<`.
    case lessThanOrEqual = "<="
    /// `>`.
    case greaterThan = ">"
    /// `>=` or `=>`.
    case greaterThanOrEqual = ">="
    /// `BEGINSWITH`: the left string starts with the right one.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the left string ends with the right one.
    case endsWith = "ENDSWITH"
    /// `CONTAINS`: the left string contains the right one.
    case contains = "CONTAINS"
    /// `LIKE`: the left string matches the right pattern, where `*` matches any run of characters
    /// (including none) and `?` exactly one. The pattern stays as written in the string literal.
    case like = "LIKE"
    /// `IN`: the left value is one of the right list's values.
    case `in` = "IN"
    /// `BETWEEN`: `low <= left && left <= high`, both ends included.
    case between = "BETWEEN"

    /// Whether `[c]`, `[d]` and `[cd]` may follow this operator.
    public var acceptsStringOptions: Bool {
        switch self {
        case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like: return true
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .in, .between: return false
        }
    }

    /// The operator that gives the same result with the operands swapped (`<` for `>`), or `nil`
    /// for operators whose sides cannot be exchanged.
    public var mirrored: QueryOperator? {
        switch self {
        case .equal, .notEqual: return self
        case .lessThan: return .greaterThan
        case .lessThanOrEqual: return .greaterThanOrEqual
        case .greaterThan: return .lessThan
        case .greaterThanOrEqual: return .lessThanOrEqual
        case .beginsWith, .endsWith, .contains, .like, .in, .between: return nil
        }
    }
}
