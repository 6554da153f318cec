import Foundation
@testable import Strata

// Model classes whose schema a test sets at run time, so that one test can run many schema
// versions of the same classes through the real migration path (`Realm(configuration:)` with
// `objectTypes`). Each class keeps its values in a dictionary; its `ObjectSchemaProviding`
// conformance reads the schema of its slot from `DynamicSchemas`. Like MigrationTests' old
// versions, they derive from aliases the StrataPlugin does not treat as model bases.

/// `EmbeddedObject`, under a name the StrataPlugin does not treat as a model base class.
typealias HandWrittenEmbeddedObject = EmbeddedObject

/// The schemas the dynamic classes currently have (set only while no realm is open).
enum DynamicSchemas {
    nonisolated(unsafe) static var schemas: [ObjectSchema?] = Array(repeating: nil, count: 5)
    nonisolated(unsafe) static var schemaVersion: UInt64 = 0
    nonisolated(unsafe) static var migrations: [SchemaMigration] = []

    static let classes: [any ObjectSchemaProviding.Type] = [DynM0.self, DynM1.self, DynM2.self, DynM3.self, DynE0.self]

    /// The classes whose slot has a schema.
    static var activeTypes: [any ObjectSchemaProviding.Type] {
        classes.indices.filter { schemas[$0] != nil }.map { classes[$0] }
    }

    static var module: Schema {
        Schema(schemaVersion: schemaVersion, objectTypes: activeTypes, migrations: migrations)
    }

    static func schema(_ slot: Int) -> ObjectSchema {
        schemas[slot] ?? ObjectSchema(className: "Unused\(slot)", kind: slot == 4 ? .embedded : .object, properties: [])
    }

    static func accessors<T: DynamicValues>(_ make: @escaping @Sendable () -> T, slot: Int) -> ObjectAccessors<T> {
        let schema = schema(slot)
        var properties: [PropertyAccessor<T>] = []
        for p in schema.properties {
            let name = p.name
            let property = p
            let get: @Sendable (T) -> PropertyValue = {
                $0.dynamicValues[name] ?? DynamicSchemas.defaultValue(property)
            }
            var set: (@Sendable (T, PropertyValue) throws(PropertyValueError) -> Void)?
            if p.type != .linkingObjects {
                set = { @Sendable (o: T, v: PropertyValue) throws(PropertyValueError) in o.dynamicValues[name] = v }
            }
            properties.append(PropertyAccessor<T>(name: name, keyPath: \T.dynamicValues, get: get, set: set))
        }
        return ObjectAccessors<T>(make: make, properties: properties, bindPropertyIndexes: { _ in })
    }

    static func defaultValue(_ p: Property) -> PropertyValue {
        if p.type == .linkingObjects { return .linkingObjects }
        switch p.collection {
        case .list: return .list([])
        case .set: return .set([])
        case .map: return .map([:])
        case .none: break
        }
        if p.isOptional { return .null }
        switch p.type {
        case .int: return .int(0)
        case .string: return .string("")
        default: return .null
        }
    }
}

/// A dynamic class's values.
protocol DynamicValues: ObjectBase {
    var dynamicValues: [String: PropertyValue] { get set }
}

final class DynM0: HandWrittenObject, DynamicValues { var dynamicValues: [String: PropertyValue] = [:] }
final class DynM1: HandWrittenObject, DynamicValues { var dynamicValues: [String: PropertyValue] = [:] }
final class DynM2: HandWrittenObject, DynamicValues { var dynamicValues: [String: PropertyValue] = [:] }
final class DynM3: HandWrittenObject, DynamicValues { var dynamicValues: [String: PropertyValue] = [:] }
final class DynE0: HandWrittenEmbeddedObject, DynamicValues { var dynamicValues: [String: PropertyValue] = [:] }

extension DynM0: ObjectSchemaProviding {
    typealias StrataRoot = DynM0
    static var strataObjectSchema: ObjectSchema { DynamicSchemas.schema(0) }
    static var strataAccessors: ObjectAccessors<DynM0> { DynamicSchemas.accessors({ DynM0() }, slot: 0) }
    static var strataModuleSchema: Schema { DynamicSchemas.module }
}

extension DynM1: ObjectSchemaProviding {
    typealias StrataRoot = DynM1
    static var strataObjectSchema: ObjectSchema { DynamicSchemas.schema(1) }
    static var strataAccessors: ObjectAccessors<DynM1> { DynamicSchemas.accessors({ DynM1() }, slot: 1) }
    static var strataModuleSchema: Schema { DynamicSchemas.module }
}

extension DynM2: ObjectSchemaProviding {
    typealias StrataRoot = DynM2
    static var strataObjectSchema: ObjectSchema { DynamicSchemas.schema(2) }
    static var strataAccessors: ObjectAccessors<DynM2> { DynamicSchemas.accessors({ DynM2() }, slot: 2) }
    static var strataModuleSchema: Schema { DynamicSchemas.module }
}

extension DynM3: ObjectSchemaProviding {
    typealias StrataRoot = DynM3
    static var strataObjectSchema: ObjectSchema { DynamicSchemas.schema(3) }
    static var strataAccessors: ObjectAccessors<DynM3> { DynamicSchemas.accessors({ DynM3() }, slot: 3) }
    static var strataModuleSchema: Schema { DynamicSchemas.module }
}

extension DynE0: ObjectSchemaProviding {
    typealias StrataRoot = DynE0
    static var strataObjectSchema: ObjectSchema { DynamicSchemas.schema(4) }
    static var strataAccessors: ObjectAccessors<DynE0> { DynamicSchemas.accessors({ DynE0() }, slot: 4) }
    static var strataModuleSchema: Schema { DynamicSchemas.module }
}
