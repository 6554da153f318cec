import Foundation

// `class Dog: Object, Codable`: Swift synthesizes `init(from:)` from the `@Persisted` wrappers,
// which decode their value (a key missing from the input leaves the property at its default,
// as in RealmSwift); StrataPlugin generates `encode(to:)`, which reads the properties through
// the accessors (`_strataEncode`), so managed objects encode their stored values.

extension Persisted: Decodable where Value: Decodable {
    /// Decodes the property's value (for the synthesized `init(from:)` of a `Codable` model).
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try Value(from: decoder))
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// Encodes the value the wrapper holds (an unmanaged object's value). Models declared
    /// `Codable` get an `encode(to:)` from StrataPlugin that reads managed objects too.
    public func encode(to encoder: any Encoder) throws {
        try storage.encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a `@Persisted` property, leaving it at its default when `key` is missing (the
    /// synthesized `init(from:)` of a `Codable` model calls it).
    public func decode<Value: Decodable>(_ type: Persisted<Value>.Type, forKey key: Key) throws -> Persisted<Value> {
        try decodeIfPresent(type, forKey: key) ?? Persisted()
    }
}

/// The `encode(to:)` StrataPlugin generates for a `Codable` model: every persisted property but
/// `LinkingObjects`, by Swift name, read through the accessors (managed or not); nil values are
/// left out, as synthesized `Encodable` conformances leave out nil optionals. Not API.
///
/// - Throws: `EncodingError.invalidValue` for a property whose type is not `Encodable`, or what
///   the encoder throws.
public func _strataEncode(_ object: ObjectBase, to encoder: any Encoder) throws {
    guard let type = Swift.type(of: object) as? any ObjectSchemaProviding.Type else {
        throw EncodingError.invalidValue(
            object,
            .init(
                codingPath: encoder.codingPath,
                debugDescription: "\(Swift.type(of: object)) has no generated schema (StrataPlugin)."))
    }
    var container = encoder.container(keyedBy: _StrataCodingKey.self)
    for property in type.strataObjectSchema.properties where property.type != .linkingObjects {
        guard let value = type._strataValue(forKey: property.name, of: object) else { continue }
        if let optional = value as? _StrataOptional, optional.strataIsNone { continue }
        guard let encodable = value as? any Encodable else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: encoder.codingPath + [_StrataCodingKey(stringValue: property.name)],
                    debugDescription: "'\(type.className()).\(property.name)' (\(property.swiftType)) is not Encodable."
                ))
        }
        try container.encode(encodable, forKey: _StrataCodingKey(stringValue: property.name))
    }
}
