import Foundation

/// One migration step between consecutive history versions (the generator's copy of the
/// runtime's `MigrationStep`).
package enum MigrationStepRecord: Hashable, Sendable {
    case addType(String)
    case removeType(String)
    case renameType(from: String, to: String)
    case addProperty(type: String, property: String, defaultValue: String?)
    case removeProperty(type: String, property: String)
    case renameProperty(type: String, from: String, to: String)
    case changePropertyType(type: String, property: String, from: String, to: String, needsUserCode: Bool)
    case changePrimaryKey(type: String, property: String, isPrimaryKey: Bool)
    case addIndex(type: String, property: String)
    case removeIndex(type: String, property: String)
}
