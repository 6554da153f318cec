import Foundation
internal import StrataCore
internal import StrataStorage

/// The object store's column for a generated schema property.
func coreColumn(for p: Property) -> StoreColumn {
    let type: ColumnType =
        switch p.type {
        case .int: .int
        case .bool: .bool
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .timestamp
        case .decimal128: .decimal128
        case .objectId: .objectId
        case .UUID: .uuid
        case .any: .mixed
        case .object: .link
        case .linkingObjects: .linkingObjects
        }
    let collection: CollectionKind =
        switch p.collection {
        case .none: .none
        case .list: .list
        case .set: .set
        case .map: .map
        }
    return StoreColumn(
        name: p.columnName, type: type, collection: collection,
        isNullable: p.isOptional || (p.type == .object && p.collection == .none),
        isPrimaryKey: p.isPrimaryKey, isIndexed: p.isIndexed || p.isPrimaryKey,
        targetTable: p.objectClassName, originProperty: p.linkOriginPropertyName)
}

// MARK: Managed property access (called by @Persisted)

extension _Persistable where Self: _PropertyValueConvertible {
    /// Reads property `index` of a managed object.
    @inlinable
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Self {
        let value = state.realm.propertyValue(state, index)
        guard let decoded = Self._strataFromPropertyValue(value) else {
            state.realm._strataStoredValueDoesNotFit(state, index, value, expected: "\(Self.self)")
            return Self._strataDefaultValue()
        }
        return decoded
    }

    /// Writes property `index` of a managed object.
    @inlinable
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: Self) {
        state.realm.setPropertyValue(state, index, newValue._strataPropertyValue)
    }
}

extension Int {
    /// Fast path: reads the column without building a `PropertyValue`.
    @inlinable
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Int {
        Int(state.realm.intValue(state, index) ?? 0)
    }
}

extension String {
    /// Fast path: reads the column without building a `PropertyValue`.
    @inlinable
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> String {
        state.realm.stringValue(state, index) ?? ""
    }
}

extension Double {
    /// Fast path: reads the column without building a `PropertyValue`.
    @inlinable
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Double {
        state.realm.doubleValue(state, index) ?? 0
    }
}

extension Int64 {
    /// Fast path: reads the column without building a `PropertyValue`.
    @inlinable
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> Int64 {
        state.realm.intValue(state, index) ?? 0
    }
}
