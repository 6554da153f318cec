import Foundation
internal import StrataCore
internal import StrataStorage

/// One model class bound to its table in one file: the generated accessors, type-erased, and
/// the mapping from schema property index to stored column.
///
/// ## Concurrency
/// Immutable; shared by the realms of one file.
final class TableBinding: @unchecked Sendable {
    let type: ObjectBase.Type
    let schema: ObjectSchema
    let table: StoreTable
    /// Stored column of each schema property.
    let columns: [Int]
    let make: () -> ObjectBase
    let getters: [(ObjectBase) -> PropertyValue]
    let setters: [((ObjectBase, PropertyValue) throws -> Void)?]
    let bind: (ObjectBase) -> Void
    let propertyIndexByName: [String: Int]
    /// Whether objects of this binding are `DynamicObject`s (links and collections read as
    /// dynamic objects, properties named as stored).
    let isDynamic: Bool

    convenience init<T: ObjectSchemaProviding>(_ type: T.Type, table: StoreTable) {
        KnownModels.shared.add(type)
        let schema = T.strataObjectSchema
        let accessors = T.strataAccessors
        self.init(
            type: type, schema: schema, table: table,
            columns: schema.properties.map { table.columnIndex[$0.columnName]! }, make: accessors.erasedMake,
            getters: accessors.properties.map { p in Self.getter(p.get) },
            setters: accessors.properties.map { p in
                p.set.map { set in
                    { (object: ObjectBase, value: PropertyValue) throws in try set(object as! T.StrataRoot, value) }
                }
            },
            bind: accessors.erasedBind, isDynamic: false)
    }

    /// `get` for any object of the model's class `Root`. An object of exactly that class (every
    /// object `add` reads: bindings are found by the object's own class) is converted without a
    /// checked cast, which cost a dynamic cast and an associated-type lookup per property read
    /// (about 35 instructions a call); any other object keeps the checked `as!`.
    private static func getter<Root: ObjectBase>(
        _ get: @escaping @Sendable (Root) -> PropertyValue
    ) -> (ObjectBase) -> PropertyValue {
        { object in
            ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(Root.self)
                ? get(unsafeDowncast(object, to: Root.self)) : get(object as! Root)
        }
    }

    /// A binding from its parts: a model's (above), or a stored class read through
    /// `DynamicObject` (`isDynamic`, see Realm+Dynamic.swift).
    init(
        type: ObjectBase.Type, schema: ObjectSchema, table: StoreTable, columns: [Int],
        make: @escaping () -> ObjectBase,
        getters: [(ObjectBase) -> PropertyValue], setters: [((ObjectBase, PropertyValue) throws -> Void)?],
        bind: @escaping (ObjectBase) -> Void, isDynamic: Bool
    ) {
        self.type = type
        self.schema = schema
        self.table = table
        self.columns = columns
        self.make = make
        self.getters = getters
        self.setters = setters
        self.bind = bind
        self.isDynamic = isDynamic
        var byName: [String: Int] = [:]
        for (i, p) in schema.properties.enumerated() { byName[p.name] = i }
        propertyIndexByName = byName
        primaryKeyIndex = schema.properties.firstIndex(where: \.isPrimaryKey)
        var steps: [AddStep] = []
        for (i, p) in schema.properties.enumerated() where p.type != .linkingObjects {
            steps.append(
                AddStep(
                    property: i, column: columns[i],
                    mayDefer: p.type == .object || p.type == .any || p.collection != .none))
        }
        addSteps = steps
        let mapped = Set(columns)
        unmappedColumns = table.columns.indices.filter { !mapped.contains($0) }
        let properties = schema.properties, propertyColumns = columns
        linkingColumns = properties.indices.filter { properties[$0].type == .linkingObjects }.map {
            propertyColumns[$0]
        }
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
