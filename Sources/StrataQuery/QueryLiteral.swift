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
