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
/// Equality compares the held values; `.object` compares object identity; `.list` and
/// `.dictionary` compare their elements.
///
/// A `.list` or `.dictionary` holds a nested collection of `AnyRealmValue`s (which may nest
/// further). Stored in a realm, it is saved with the object; reading the property back gives a
/// new unmanaged `List`/`Map` with the stored values (see Docs/Decisions.md: changing it does
/// not write through; assign the property again inside a write).
///
/// ## Concurrency
/// Not `Sendable`: `.object` carries an object.
public enum AnyRealmValue: Hashable {
    /// Nothing (`nil`).
    case none
    /// An integer.
    case int(Int)
    /// A Boolean.
    case bool(Bool)
    /// A `Float`.
    case float(Float)
    /// A `Double`.
    case double(Double)
    /// A string.
    case string(String)
    /// Binary data.
    case data(Data)
    /// A date.
    case date(Date)
    /// A link to an object.
    case object(Object)
    /// An `ObjectId`.
    case objectId(ObjectId)
    /// A `Decimal128`.
    case decimal128(Decimal128)
    /// A `UUID`.
    case uuid(UUID)
    /// A nested dictionary of values.
    case dictionary(Map<String, AnyRealmValue>)
    /// A nested list of values.
    case list(List<AnyRealmValue>)

    /// `.none`, as RealmSwift's `AnyRealmValue()`.
    public init() {
        self = .none
    }

    /// A `.dictionary` holding the entries of `dictionary`.
    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        for (key, value) in dictionary { map[key] = value }
        return .dictionary(map)
    }

    /// A `.list` holding the elements of `array`, in order.
    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue {
        .list(List(array))
    }

    /// The held `Int`, if this is `.int`.
    public var intValue: Int? { if case .int(let v) = self { v } else { nil } }
    /// The held `Bool`, if this is `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The held `Float`, if this is `.float`.
    public var floatValue: Float? { if case .float(let v) = self { v } else { nil } }
    /// The held `Double`, if this is `.double`.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The held `String`, if this is `.string`.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The held `Data`, if this is `.data`.
    public var dataValue: Data? { if case .data(let v) = self { v } else { nil } }
    /// The held `Date`, if this is `.date`.
    public var dateValue: Date? { if case .date(let v) = self { v } else { nil } }
    /// The held `ObjectId`, if this is `.objectId`.
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { v } else { nil } }
    /// The held `Decimal128`, if this is `.decimal128`.
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { v } else { nil } }
    /// The held `UUID`, if this is `.uuid`.
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }
    /// The held object, if this is `.object`.
    public var objectValue: Object? { if case .object(let v) = self { v } else { nil } }
    /// The held dictionary, if this is `.dictionary`.
    public var dictionaryValue: Map<String, AnyRealmValue>? { if case .dictionary(let v) = self { v } else { nil } }
    /// The held list, if this is `.list`.
    public var listValue: List<AnyRealmValue>? { if case .list(let v) = self { v } else { nil } }

    /// The held object as a `T`, if this is `.object` holding a `T`.
    public func object<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let o) = self { o as? T } else { nil }
    }

    /// Equal kinds with equal values; objects by identity, collections by their elements.
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.float(let a), .float(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.objectId(let a), .objectId(let b)): a == b
        case (.decimal128(let a), .decimal128(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.list(let a), .list(let b)): a === b || Array(a) == Array(b)
        case (.dictionary(let a), .dictionary(let b)):
            a === b || (a.keys == b.keys && a.keys.allSatisfy { a[$0] == b[$0] })
        default: false
        }
    }

    /// Hashes the held value (a collection by its kind only, as in RealmSwift).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(14)
        case .int(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .float(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v)
        case .string(let v): hasher.combine(v)
        case .data(let v): hasher.combine(v)
        case .date(let v): hasher.combine(v)
        case .object(let v): hasher.combine(v)
        case .objectId(let v): hasher.combine(v)
        case .decimal128(let v): hasher.combine(v)
        case .uuid(let v): hasher.combine(v)
        case .dictionary: hasher.combine(12)
        case .list: hasher.combine(13)
        }
    }
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
        case .list(let v): .list(v.map { $0._strataPropertyValue })
        case .dictionary(let v):
            .map(Dictionary(uniqueKeysWithValues: v.map { ($0.key, $0.value._strataPropertyValue) }))
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
        case .list(let values):
            return .list(List(values.map { AnyRealmValue._strataFromPropertyValue($0) ?? AnyRealmValue.none }))
        case .map(let entries):
            let map = Map<String, AnyRealmValue>()
            for (key, value) in entries {
                map[key] = AnyRealmValue._strataFromPropertyValue(value) ?? AnyRealmValue.none
            }
            return .dictionary(map)
        case .set, .linkingObjects: return nil
        }
    }
}
