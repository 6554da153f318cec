import Foundation

// Codable collections, for `Codable` models: `List` and `MutableSet` as arrays, `Map` as a keyed
// container (a JSON object), `LinkingObjects` as nothing (they are computed from links).
// `Results` encode as arrays of their current elements (they cannot be decoded: they are a query).

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the decoded elements, in order.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            append(try container.decode(Element.self))
        }
    }
}

extension List: Encodable where Element: Encodable {
    /// Encodes the elements as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Results: Encodable where Element: Encodable {
    /// Encodes the current elements, in order, as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the decoded elements.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            insert(try container.decode(Element.self))
        }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    /// Encodes the members as an array.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension Map: Decodable where Value: Decodable {
    /// An unmanaged map of the decoded entries.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: _StrataCodingKey.self)
        for key in container.allKeys {
            updateValue(try container.decode(Value.self, forKey: key), forKey: Key(_strataMapKey: key.stringValue))
        }
    }
}

extension Map: Encodable where Value: Encodable {
    /// Encodes the entries as a keyed container.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _StrataCodingKey.self)
        for key in keys {
            guard let value = self[key] else { continue }
            try container.encode(value, forKey: _StrataCodingKey(stringValue: key._strataMapKey))
        }
    }
}

extension LinkingObjects: Decodable {
    /// Empty, unmanaged linking objects: they are computed from the links of stored objects, so
    /// whatever the input holds for them is ignored.
    public init(from decoder: any Decoder) throws {
        self = Self._strataDefaultValue()
    }
}
