import Foundation
internal import StrataCore
internal import StrataStorage

/// Where a managed object lives: its realm, its class's table binding and its object key. Not
/// API; reached through `ObjectBase._strataManaged` by `@Persisted` accessors.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. The state of a frozen object is immutable once
/// made, so several threads may read the object at once.
public final class ManagedObjectState {
    /// The realm that manages the object.
    public let realm: Realm
    let binding: TableBinding
    /// The object's key in its table.
    public let key: Int64
    /// The row read at `cachedStamp` (live objects only). Confined with the realm: no run-time
    /// exclusivity check (see `ObjectBase._strataManaged`).
    @exclusivity(unchecked) var cachedRow: RowReader?
    @exclusivity(unchecked) var cachedStamp: UInt64 = .max
    /// A frozen object's row, found once when the state is made (its version never changes);
    /// nil when the object is live or absent from that version. Kept whole in a `let`, so that
    /// reads borrow it: a copy, or a reader made from the bytes per read, retains the row's
    /// table, a reference count that every thread reading the snapshot changes.
    let frozenRow: RowReader?
    /// The realm's stamp when this state was made. The object existed then (it came from a query,
    /// a link or a lookup of that version), so if its row is missing while the realm still shows
    /// that stamp, the file is damaged; the object was not deleted.
    let bornStamp: UInt64
    /// Decoded values of collection properties (`_CollectionCache`), by property index; each
    /// carries the realm stamp it was read at (see ManagedCollection.swift).
    var collectionCaches: [Int: AnyObject] = [:]

    /// The state of object `key`; `frozenRow` is its row when the realm is frozen and the
    /// caller has found it already (nil: find it here).
    init(realm: Realm, binding: TableBinding, key: Int64, frozenRow: RowReader? = nil) {
        // A frozen object's row never changes: find it once, before any other thread can see
        // the object, so that its reads need no B-tree lookup and write no shared memory.
        if realm.core.isFrozen, let frozenRow {
            self.frozenRow = frozenRow
        } else {
            self.frozenRow = realm.core.isFrozen ? realm.currentRow(binding, key) : nil
        }
        self.realm = realm
        self.binding = binding
        self.key = key
        self.bornStamp = realm.core.stamp
    }

    /// The object's row in the realm's current version; traps (through `Realm.violation`) when
    /// the object was deleted.
    @inline(__always)
    func row() -> RowReader? {
        guard realm.core.isOnOwner || realm.checkThread() else { return nil }
        // Frozen objects may be read from several threads at once: the row found in `init`.
        if realm.core.isFrozen { return frozenRow }
        if cachedStamp == realm.stamp, let r = cachedRow { return r }
        let r = realm.currentRow(binding, key)
        cachedRow = r
        cachedStamp = realm.stamp
        return r
    }
}

/// One model class bound to its table in one file: the generated accessors, type-erased, and
/// the mapping from schema property index to stored column.
///
/// ## Concurrency
/// Immutable; shared by the realms of one file.
final class TableBinding: @unchecked Sendable {
    let type: ObjectBase.Type
    let schema: ObjectSchema
    let table: CoreTable
    /// Stored column of each schema property.
    let columns: [Int]
    let make: () -> ObjectBase
    let getters: [(ObjectBase) -> PropertyValue]
    let setters: [((ObjectBase, PropertyValue) throws -> Void)?]
    let bind: (ObjectBase) -> Void
    let propertyIndexByName: [String: Int]

    init<T: ObjectSchemaProviding>(_ type: T.Type, table: CoreTable) {
        self.type = type
        schema = T.strataObjectSchema
        self.table = table
        columns = schema.properties.map { table.columnIndex[$0.columnName]! }
        let accessors = T.strataAccessors
        make = accessors.erasedMake
        getters = accessors.properties.map { p in { object in p.get(object as! T.StrataRoot) } }
        setters = accessors.properties.map { p in
            p.set.map { set in { (object: ObjectBase, value: PropertyValue) throws in try set(object as! T.StrataRoot, value) } }
        }
        bind = accessors.erasedBind
        var byName: [String: Int] = [:]
        for (i, p) in schema.properties.enumerated() { byName[p.name] = i }
        propertyIndexByName = byName
        primaryKeyIndex = schema.properties.firstIndex(where: \.isPrimaryKey)
        var steps: [AddStep] = []
        for (i, p) in schema.properties.enumerated() where p.type != .linkingObjects {
            steps.append(AddStep(property: i, column: columns[i], mayDefer: p.type == .object || p.type == .any || p.collection != .none))
        }
        addSteps = steps
        let mapped = Set(columns)
        unmappedColumns = table.columns.indices.filter { !mapped.contains($0) }
        let properties = schema.properties, propertyColumns = columns
        linkingColumns = properties.indices.filter { properties[$0].type == .linkingObjects }.map { propertyColumns[$0] }
    }

    /// One stored property as `add` reads it: its index, its column, and whether its value may be
    /// an object or a collection (then it may be written after the row exists).
    struct AddStep {
        let property: Int
        let column: Int
        let mayDefer: Bool
    }

    /// The properties `add` reads, in order (computed once per table).
    let addSteps: [AddStep]
    /// Columns no property of the model maps to (kept by an additive schema change).
    let unmappedColumns: [Int]
    /// Columns of `LinkingObjects` properties (computed, never written by `add`). With
    /// `addSteps` and `unmappedColumns` they cover every column of the table once.
    let linkingColumns: [Int]

    var className: String { schema.className }
    let primaryKeyIndex: Int?
}

/// The object store's column for a generated schema property.
func coreColumn(for p: Property) -> CoreColumn {
    let type: ColumnType = switch p.type {
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
    let collection: CollectionKind = switch p.collection {
    case .none: .none
    case .list: .list
    case .set: .set
    case .map: .map
    }
    return CoreColumn(name: p.columnName, type: type, collection: collection,
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
