import Foundation

/// `Codable` for `AnyRealmValue`: the held value as the encoder writes that type.
///
/// ```swift
/// let json = try JSONEncoder().encode(AnyRealmValue.fromArray([.int(1), .string("a")]))  // [1,"a"]
/// ```
///
/// Encoding writes `.none` as nil, numbers, Booleans and strings as themselves, `.list` as an
/// array, `.dictionary` as a keyed container, and `ObjectId`, `Decimal128`, `UUID`, `Date` and
/// `Data` as those types encode themselves. Decoding tries, in order: nil, `Bool`, `Int`,
/// `Double`, `String`, an array, a dictionary, `Date`, `Data`. So a value whose encoded form is a
/// string or number of another kind (an `ObjectId`, a `Decimal128`, a `UUID`, a `Date` in JSON)
/// decodes as that string or number: decode into the model's typed property where the type
/// matters. `.object` cannot be encoded (an object has no single encoded form here).
extension AnyRealmValue: Codable {
    /// Reads a value, trying the kinds in the order the type's documentation gives.
    /// - Throws: `DecodingError.typeMismatch` when the value is none of those kinds.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .none
        } else if let v = try? container.decode(Bool.self) {
            self = .bool(v)
        } else if let v = try? container.decode(Int.self) {
            self = .int(v)
        } else if let v = try? container.decode(Double.self) {
            self = .double(v)
        } else if let v = try? container.decode(String.self) {
            self = .string(v)
        } else if let v = try? container.decode([AnyRealmValue].self) {
            self = .fromArray(v)
        } else if let v = try? container.decode([String: AnyRealmValue].self) {
            self = .fromDictionary(v)
        } else if let v = try? container.decode(Date.self) {
            self = .date(v)
        } else if let v = try? container.decode(Data.self) {
            self = .data(v)
        } else {
            throw DecodingError.typeMismatch(
                AnyRealmValue.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "Expected nil, a Bool, a number, a string, an array or a dictionary for an AnyRealmValue"))
        }
    }

    /// Writes the held value.
    /// - Throws: `EncodingError.invalidValue` for `.object`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .none: try container.encodeNil()
        case .int(let v): try container.encode(v)
        case .bool(let v): try container.encode(v)
        case .float(let v): try container.encode(v)
        case .double(let v): try container.encode(v)
        case .string(let v): try container.encode(v)
        case .data(let v): try container.encode(v)
        case .date(let v): try container.encode(v)
        case .objectId(let v): try container.encode(v)
        case .decimal128(let v): try container.encode(v)
        case .uuid(let v): try container.encode(v)
        case .list(let v): try container.encode(Array(v))
        case .dictionary(let v):
            try container.encode(Dictionary(uniqueKeysWithValues: v.map { ($0.key, $0.value) }))
        case .object(let o):
            throw EncodingError.invalidValue(
                o,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription:
                        "AnyRealmValue.object(\(type(of: o).className())) cannot be encoded: encode the object itself (a Codable model) instead"
                ))
        }
    }
}
