// The typed AST of a parsed filter string: the contract between the parser (this module) and the
// query engine, which binds it to a schema and evaluates it. Nothing here knows about schemas,
// properties' types or argument values; the engine checks those when it binds.

/// A predicate: the root of a parsed filter string.
///
/// `QueryPredicate` is what ``ParsedQuery/parse(_:)`` produces from a string such as
/// `"name == 'Rex' AND age > 3"`; the engine binds its key paths to a schema and evaluates it.
///
/// ```swift
/// let query = try ParsedQuery.parse("name == 'Rex' AND age > 3")
/// // query.predicate == .and([
/// //     .comparison(QueryComparison(.keyPath(["name"]), .equal, .literal(.string("Rex")))),
/// //     .comparison(QueryComparison(.keyPath(["age"]), .greaterThan, .literal(.int(3)))),
/// // ])
/// ```
///
/// Shape guarantees for predicates the parser produces (hand-built values need not follow them):
/// - `.and` and `.or` have at least two children, and an `.and` never directly contains an `.and`
///   (nor an `.or` an `.or`): `a AND (b AND c)` is `.and([a, b, c])`.
/// - Parentheses leave no trace; `NOT NOT a` stays `.not(.not(a))`.
///
/// `description` prints canonical query text that parses back to an equal predicate.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public indirect enum QueryPredicate: Sendable, Equatable, Hashable {
    /// One comparison, such as `age > 3` or `ANY dogs.name BEGINSWITH 'B'`.
    case comparison(QueryComparison)
    /// All children match (`AND`, `&&`).
    case and([QueryPredicate])
    /// At least one child matches (`OR`, `||`).
    case or([QueryPredicate])
    /// The child does not match (`NOT`, `!`).
    case not(QueryPredicate)
    /// `TRUEPREDICATE`: matches every object.
    case truePredicate
    /// `FALSEPREDICATE`: matches no object.
    case falsePredicate
}

/// One comparison: `left op[options] right`, optionally with a quantifier before `left`.
///
/// Sides are normalised so that the engine sees a property on the left whenever it can: for `==`,
/// `!=`, `<`, `<=`, `>`, `>=`, a constant or argument on the left and a key path on the right
/// are swapped and the operator mirrored (`5 < age` becomes `age > 5`, `'Rex' == name` becomes
/// `name == 'Rex'`). The string operators, `IN` and `BETWEEN` keep their sides as written
/// (`'Rex' IN dogs.name` asks whether the list contains 'Rex').
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public struct QueryComparison: Sendable, Equatable, Hashable {
    /// The left operand; a key path or `%K` when ``quantifier`` is set.
    public var left: QueryOperand
    /// The operator between the operands.
    public var op: QueryOperator
    /// The right operand; a `.list` of two values (or an argument) for `BETWEEN`, a `.list`,
    /// argument or key path for `IN`.
    public var right: QueryOperand
    /// `[c]`, `[d]`, `[cd]` after the operator; empty when none was written.
    public var options: QueryStringOptions
    /// `ANY`, `ALL` or `NONE` before the left key path (`SOME` is `ANY`); `nil` when none was written.
    ///
    /// Without a quantifier, a key path through a list (`dogs.name == 'Rex'`) means `ANY`, as in
    /// Realm; the engine decides that, because only the schema knows which properties are lists.
    public var quantifier: QueryQuantifier?

    /// Creates a comparison. Parameters are in reading order: `quantifier left op[options] right`.
    public init(
        _ left: QueryOperand,
        _ op: QueryOperator,
        _ right: QueryOperand,
        options: QueryStringOptions = [],
        quantifier: QueryQuantifier? = nil
    ) {
        self.left = left
        self.op = op
        self.right = right
        self.options = options
        self.quantifier = quantifier
    }
}

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

/// The string comparison modifiers written in brackets after an operator.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public struct QueryStringOptions: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: compare ignoring case (`"Rex"` matches `"rEX"`).
    public static let caseInsensitive = QueryStringOptions(rawValue: 1 << 0)
    /// `[d]`: compare ignoring diacritics (`"é"` matches `"e"`).
    public static let diacriticInsensitive = QueryStringOptions(rawValue: 1 << 1)
}

/// The quantifier written before a key path that goes through a list.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryQuantifier: String, Sendable, Equatable, Hashable, CaseIterable {
    /// `ANY` (or `SOME`): at least one element matches.
    case any = "ANY"
    /// `ALL`: every element matches (true for an empty list).
    case all = "ALL"
    /// `NONE`: no element matches (true for an empty list). Not named `none`, which would read as
    /// `Optional.none` wherever a `QueryQuantifier?` is expected.
    case noElement = "NONE"
}

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

    /// `.keyPath(components, aggregate: nil)`: a key path without a collection operator.
    public static func keyPath(_ components: [String]) -> QueryOperand {
        .keyPath(components, aggregate: nil)
    }

    /// Whether this operand names a property (a key path, or `%K`).
    public var isKeyPath: Bool {
        switch self {
        case .keyPath, .keyPathArgument: return true
        case .literal, .argument, .list: return false
        }
    }
}

/// A collection operator at the end of a key path (`dogs.@count`, `dogs.@avg.age`).
///
/// `@min`, `@max`, `@sum` and `@avg` carry the property of each element they aggregate
/// (`dogs.@avg.age` is `.avg("age")`), or `nil` for a list of primitives (`scores.@max`).
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryAggregate: Sendable, Equatable, Hashable {
    /// `@count`: the number of elements of a list (or characters of a string, bytes of data).
    case count
    /// `@size`: the same as `@count`; kept apart so the query prints back as written.
    case size
    /// `@min`: the smallest value.
    case min(String?)
    /// `@max`: the largest value.
    case max(String?)
    /// `@sum`: the sum of the values (0 for an empty list).
    case sum(String?)
    /// `@avg`: the mean of the values (`nil` for an empty list).
    case avg(String?)

    /// The operator as written, with its `@`: `"@count"`.
    public var name: String {
        switch self {
        case .count: return "@count"
        case .size: return "@size"
        case .min: return "@min"
        case .max: return "@max"
        case .sum: return "@sum"
        case .avg: return "@avg"
        }
    }

    /// The element property aggregated by `@min`, `@max`, `@sum`, `@avg`; `nil` otherwise.
    public var property: String? {
        switch self {
        case .count, .size: return nil
        case .min(let p), .max(let p), .sum(let p), .avg(let p): return p
        }
    }
}

/// A constant written in the query text.
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryLiteral: Sendable, Equatable, Hashable {
    /// An integer: `42`, `-7`, `0x1F`. Must fit in `Int64`.
    case int(Int64)
    /// A floating-point number: `1.5`, `-2e3`. Always finite.
    case double(Double)
    /// A string in single or double quotes, with its escapes resolved.
    case string(String)
    /// `true` or `false` (any case).
    case bool(Bool)
    /// `nil`, `NULL` or `null` (any case).
    case null
}
