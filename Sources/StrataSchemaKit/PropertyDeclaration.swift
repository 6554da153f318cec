/// One `@Persisted var` as written.
public struct PropertyDeclaration: Hashable, Sendable {
    public var name: String
    public var declaredType: TypeExpression?
    /// The initializer's source text, e.g. `""` or `Date()`.
    public var defaultValue: String?
    /// The type inferred from `defaultValue` when there is no annotation.
    public var inferredType: TypeExpression?
    public var attributes: PersistedAttributes
    public var location: SourceLocation
    /// Problems the collector saw while reading the declaration (for example `let`, `static`, no type).
    public var syntaxProblems: [String] = []
    /// Whether the declaration has `willSet`/`didSet` observers (they run when Swift code assigns
    /// the property, not when Strata fills in an object from stored or given values).
    public var hasObservers = false
}
