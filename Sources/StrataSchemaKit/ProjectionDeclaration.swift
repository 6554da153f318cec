/// A `class X: Projection<Root>` and its `@Projected` properties, as written.
package struct ProjectionDeclaration: Hashable, Sendable {
    /// One `@Projected(\Root.a.b) var label` property.
    package struct Property: Hashable, Sendable {
        /// The property's name, without backticks.
        package var label: String
        /// The name as the source spells it (`` `default` ``).
        package var spelling: String
        /// The key path's components after the root type (`["friends", "projectTo", "firstName"]`),
        /// without optional chaining.
        package var components: [String]
        package var location: SourceLocation
    }

    package var name: String
    /// How Swift code outside the class spells it (`Outer.Inner` for a nested class).
    package var qualifiedName: String
    /// The projected class, as the superclass's generic argument names it.
    package var rootName: String
    package var accessLevel: String?
    package var properties: [Property]
    package var location: SourceLocation
}
