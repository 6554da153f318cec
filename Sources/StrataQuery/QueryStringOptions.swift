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
