import Foundation

extension Optional: _PropertyValueEncodable where Wrapped: _PropertyValueEncodable {
    public var _strataPropertyValue: PropertyValue {
        switch self {
        case .none: .null
        case .some(let value): value._strataPropertyValue
        }
    }
}

extension Optional: _PropertyValueConvertible where Wrapped: _PropertyValueConvertible {
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        if case .null = value { return .some(.none) }
        return Wrapped._strataFromPropertyValue(value).map { .some($0) }
    }
}

extension Optional: _Persistable where Wrapped: _PersistableInsideOptional {
    public static func _strataDefaultValue() -> Self { nil }
}

extension Optional: RealmCollectionValue where Wrapped: RealmCollectionValue & _PersistableInsideOptional {}
extension Optional: _PrimaryKey where Wrapped: _PrimaryKey & _PersistableInsideOptional {}
extension Optional: _Indexable where Wrapped: _Indexable & _PersistableInsideOptional {}

// MARK: Value types

extension Bool: _Persistable, _PersistableInsideOptional, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Bool { false }
    public var _strataPropertyValue: PropertyValue { .bool(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Bool? {
        if case .bool(let v) = value { return v }
        return nil
    }
}

extension String: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> String { "" }
    public var _strataPropertyValue: PropertyValue { .string(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> String? {
        if case .string(let v) = value { return v }
        return nil
    }
}

extension Float: _Persistable, _PersistableInsideOptional, RealmCollectionValue {
    public static func _strataDefaultValue() -> Float { 0 }
    public var _strataPropertyValue: PropertyValue { .float(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Float? {
        if case .float(let v) = value { return v }
        return nil
    }
}

extension Double: _Persistable, _PersistableInsideOptional, RealmCollectionValue {
    public static func _strataDefaultValue() -> Double { 0 }
    public var _strataPropertyValue: PropertyValue { .double(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Double? {
        if case .double(let v) = value { return v }
        return nil
    }
}

extension Data: _Persistable, _PersistableInsideOptional, RealmCollectionValue {
    public static func _strataDefaultValue() -> Data { Data() }
    public var _strataPropertyValue: PropertyValue { .data(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Data? {
        if case .data(let v) = value { return v }
        return nil
    }
}

extension Date: _Persistable, _PersistableInsideOptional, _Indexable, RealmCollectionValue {
    /// The current date, as RealmSwift does for a `Date` property without a default.
    public static func _strataDefaultValue() -> Date { Date() }
    public var _strataPropertyValue: PropertyValue { .date(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Date? {
        if case .date(let v) = value { return v }
        return nil
    }
}

extension UUID: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    /// A new random UUID, so each unmanaged object gets its own primary key.
    public static func _strataDefaultValue() -> UUID { UUID() }
    public var _strataPropertyValue: PropertyValue { .uuid(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> UUID? {
        if case .uuid(let v) = value { return v }
        return nil
    }
}

// All integer widths are stored as 64-bit integers; reading a value that does not fit the
// declared width fails instead of truncating.
extension Int: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Int { 0 }
    public var _strataPropertyValue: PropertyValue { .int(Int64(self)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Int? {
        if case .int(let v) = value { return Int(exactly: v) }
        return nil
    }
}

extension Int8: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Int8 { 0 }
    public var _strataPropertyValue: PropertyValue { .int(Int64(self)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Int8? {
        if case .int(let v) = value { return Int8(exactly: v) }
        return nil
    }
}

extension Int16: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Int16 { 0 }
    public var _strataPropertyValue: PropertyValue { .int(Int64(self)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Int16? {
        if case .int(let v) = value { return Int16(exactly: v) }
        return nil
    }
}

extension Int32: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Int32 { 0 }
    public var _strataPropertyValue: PropertyValue { .int(Int64(self)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Int32? {
        if case .int(let v) = value { return Int32(exactly: v) }
        return nil
    }
}

extension Int64: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    public static func _strataDefaultValue() -> Int64 { 0 }
    public var _strataPropertyValue: PropertyValue { .int(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Int64? {
        if case .int(let v) = value { return v }
        return nil
    }
}

// MARK: Objects

extension ObjectBase: _PersistableInsideOptional, RealmCollectionValue {
    public var _strataPropertyValue: PropertyValue { .object(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        if case .object(let object) = value { return object as? Self }
        return nil
    }
}
