/// One change between two recorded schema versions, derived from the stable ids in the schema
/// history (so a rename is a rename, not a removal and an addition).
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum MigrationStep: Sendable, Hashable {
    case addType(String)
    case removeType(String)
    case renameType(from: String, to: String)
    /// A new property; existing objects get the default of a new unmanaged instance.
    case addProperty(type: String, property: String, defaultValueSource: String?)
    case removeProperty(type: String, property: String)
    /// The stored values move to the new name.
    case renameProperty(type: String, from: String, to: String)
    /// `needsUserCode` is true when the stored values cannot be converted automatically (for
    /// example `String` to `Int`): the migration block must convert them.
    case changePropertyType(type: String, property: String, from: String, to: String, needsUserCode: Bool)
    /// The property became (or stopped being) the primary key; existing values must be unique.
    case changePrimaryKey(type: String, property: String, isPrimaryKey: Bool)
    case addIndex(type: String, property: String)
    case removeIndex(type: String, property: String)

    /// Whether the step needs code in the user's migration block.
    public var needsUserCode: Bool {
        if case .changePropertyType(_, _, _, _, let needsUserCode) = self { return needsUserCode }
        return false
    }
}
