/// One `@Persisted var` as written.
package struct PropertyDeclaration: Hashable, Sendable {
    package var name: String
    package var declaredType: TypeExpression?
    /// The initializer's source text, e.g. `""` or `Date()`.
    package var defaultValue: String?
    /// The type inferred from `defaultValue` when there is no annotation.
    package var inferredType: TypeExpression?
    package var attributes: PersistedAttributes
    package var location: SourceLocation
    /// Problems the collector saw while reading the declaration (for example `let`, `static`, no type).
    package var syntaxProblems: [String] = []
    /// Whether the declaration has `willSet`/`didSet` observers (they run when Swift code assigns
    /// the property, not when Strata fills in an object from stored or given values).
    package var hasObservers = false
}
