import Foundation

/// A property that holds a value of any persistable kind, or nothing (RealmSwift's mixed type).
///
/// ```swift
/// final class Setting: Object {
///     @Persisted var key = ""
///     @Persisted var value: AnyRealmValue      // defaults to .none
/// }
/// setting.value = .int(42)
/// if case .string(let s) = setting.value { print(s) }
/// ```
///
/// Equality compares the held values; `.object` compares object identity.
///
/// ## Concurrency
/// Not `Sendable`: `.object` carries an object.
public enum AnyRealmValue: Hashable {
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case object(Object)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)

    /// The held `Int`, if this is `.int`.
    public var intValue: Int? { if case .int(let v) = self { v } else { nil } }
    /// The held `Bool`, if this is `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The held `Double`, if this is `.double`.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The held `String`, if this is `.string`.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The held object, if this is `.object`.
    public var objectValue: Object? { if case .object(let v) = self { v } else { nil } }
}

extension AnyRealmValue: _Persistable, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> AnyRealmValue { .none }

    public var _strataPropertyValue: PropertyValue {
        switch self {
        case .none: .null
        case .int(let v): .int(Int64(v))
        case .bool(let v): .bool(v)
        case .float(let v): .float(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .data(let v): .data(v)
        case .date(let v): .date(v)
        case .object(let v): .object(v)
        case .objectId(let v): .objectId(v)
        case .decimal128(let v): .decimal128(v)
        case .uuid(let v): .uuid(v)
        }
    }

    public static func _strataFromPropertyValue(_ value: PropertyValue) -> AnyRealmValue? {
        switch value {
        case .null: return AnyRealmValue.none
        case .int(let v): return Int(exactly: v).map { .int($0) }
        case .bool(let v): return .bool(v)
        case .float(let v): return .float(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .data(let v): return .data(v)
        case .date(let v): return .date(v)
        case .object(let v): return (v as? Object).map { .object($0) }
        case .objectId(let v): return .objectId(v)
        case .decimal128(let v): return .decimal128(v)
        case .uuid(let v): return .uuid(v)
        case .list, .set, .map, .linkingObjects: return nil
        }
    }
}
