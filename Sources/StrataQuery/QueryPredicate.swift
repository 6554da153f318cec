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
