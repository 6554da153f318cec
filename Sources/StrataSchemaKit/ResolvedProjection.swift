/// A projection whose properties are checked against the models: what the emitter writes.
package struct ResolvedProjection: Hashable, Sendable {
    /// One projected property and the path of persisted properties it reads (`address.city`).
    package struct Property: Hashable, Sendable {
        /// The property's name, without backticks.
        package var label: String
        /// The name as the source spells it (`` `default` ``).
        package var spelling: String
        package var origin: String
    }

    package var qualifiedName: String
    package var accessLevel: String?
    package var properties: [Property]
}
