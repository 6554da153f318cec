/// The steps between two consecutive recorded schema versions.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct SchemaMigration: Sendable, Hashable {
    /// The older recorded version.
    public let fromVersion: UInt64
    /// The next recorded version (`fromVersion + 1`).
    public let toVersion: UInt64
    /// What changed, types first, then properties in declaration order.
    public let steps: [MigrationStep]

    /// Called by generated code.
    public init(fromVersion: UInt64, toVersion: UInt64, steps: [MigrationStep]) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.steps = steps
    }
}
