import Foundation

/// One property's value in a type-erased form: what generated accessors read from and write to an
/// object, so the object layer can copy values in and out of storage without reflection.
///
/// All integer widths travel as `.int(Int64)`; a `PersistableEnum` travels as its raw value; an
/// `AnyRealmValue` as the case it holds; `nil` (and `AnyRealmValue.none`) as `.null`.
///
/// ## Concurrency
/// Not `Sendable`: `.object` and collections of objects carry class instances.
public enum PropertyValue {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case decimal128(Decimal128)
    case objectId(ObjectId)
    case uuid(UUID)
    /// A to-one link, or an object inside a collection or an `AnyRealmValue`.
    case object(ObjectBase)
    case list([PropertyValue])
    case set([PropertyValue])
    case map([String: PropertyValue])
    /// The value of a `LinkingObjects` property: computed from the links that point at the object,
    /// never written.
    case linkingObjects

    /// The case name, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .decimal128: "decimal128"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .object(let object): "object(\(type(of: object).className()))"
        case .list: "list"
        case .set: "set"
        case .map: "map"
        case .linkingObjects: "linkingObjects"
        }
    }
}

/// Converts `value` for a generated setter. Not API.
///
/// - Parameters:
///   - value: the type-erased value.
///   - property: `Type.property`, for the error.
/// - Throws: `PropertyValueError.typeMismatch` when `value` does not fit `T`.
@inlinable
public func _strataDecode<T: _PropertyValueConvertible>(
    _ value: PropertyValue, property: String
) throws(PropertyValueError) -> T {
    guard let decoded = T._strataFromPropertyValue(value) else {
        throw .typeMismatch(property: property, expected: "\(T.self)", found: value.kindName)
    }
    return decoded
}

/// `_strataDecode` for generated code that cannot spell the property's type: `like` only gives
/// the type (it is never evaluated). Not API.
public func _strataDecode<T: _PropertyValueConvertible>(
    _ value: PropertyValue, like _: @autoclosure () -> T, property: String
) throws(PropertyValueError) -> T {
    guard let decoded = T._strataFromPropertyValue(value) else {
        throw .typeMismatch(property: property, expected: "\(T.self)", found: value.kindName)
    }
    return decoded
}
