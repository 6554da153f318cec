/// The schema of a module: its model classes, its schema version and the migration steps between
/// the versions recorded in its schema history.
///
/// The StrataPlugin build plugin generates one per module as `Schema.generated`:
///
/// ```swift
/// let schema = Schema.generated
/// print(schema.schemaVersion)      // the latest version in strata-schema.json, 0 without one
/// print(schema)                    // every class and property
/// ```
///
/// ## Concurrency
/// Immutable; `Sendable`.
public struct Schema: Sendable, CustomStringConvertible {
    /// The latest version recorded in the module's `strata-schema.json`, or 0 without one.
    public let schemaVersion: UInt64
    /// The generated model classes, in declaration order.
    public let objectTypes: [any ObjectSchemaProviding.Type]
    /// Steps between consecutive recorded versions, oldest first.
    public let migrations: [SchemaMigration]
    /// How the models differ from the latest recorded version (empty when they match or there is
    /// no history): changes built without running the update command yet.
    public let pendingChanges: [String]
    /// The command that records the models as a new version (nil without a history).
    public let recordCommand: String?
    /// For a schema read from a file (`realm.schema`, a migration's schemas): its classes.
    private let storedObjectSchemas: [ObjectSchema]?

    /// Called by generated code.
    public init(
        schemaVersion: UInt64, objectTypes: [any ObjectSchemaProviding.Type], migrations: [SchemaMigration],
        pendingChanges: [String] = [], recordCommand: String? = nil
    ) {
        self.schemaVersion = schemaVersion
        self.objectTypes = objectTypes
        self.migrations = migrations
        self.pendingChanges = pendingChanges
        self.recordCommand = recordCommand
        self.storedObjectSchemas = nil
    }

    /// The schema a file stores: `objectSchemas` as given (sorted by class name), no model types
    /// and no migrations.
    init(schemaVersion: UInt64, storedObjectSchemas: [ObjectSchema]) {
        self.schemaVersion = schemaVersion
        self.objectTypes = []
        self.migrations = []
        self.pendingChanges = []
        self.recordCommand = nil
        self.storedObjectSchemas = storedObjectSchemas.sorted { $0.className < $1.className }
    }

    /// The schema of each class: in declaration order for a module's schema, by class name for a
    /// file's.
    public var objectSchemas: [ObjectSchema] { storedObjectSchemas ?? objectTypes.map { $0.strataObjectSchema } }

    /// The schema of each class (RealmSwift's name for ``objectSchemas``).
    public var objectSchema: [ObjectSchema] { objectSchemas }

    /// The schema of the class named `className`.
    public subscript(className: String) -> ObjectSchema? {
        objectSchemas.first { $0.className == className }
    }

    /// The steps that take data written with `version` to `schemaVersion`, oldest first.
    public func migrationSteps(from version: UInt64) -> [MigrationStep] {
        migrations.filter { $0.fromVersion >= version }.flatMap(\.steps)
    }

    /// The version, then each class with its properties.
    public var description: String {
        "Schema version \(schemaVersion)\n" + objectSchemas.map(\.description).joined(separator: "\n")
    }
}
