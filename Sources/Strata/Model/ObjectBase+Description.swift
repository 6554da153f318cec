import Foundation

// `description` of model objects, in RealmSwift's layout (`RLMObjectBase description`):
//
//     Dog {
//         name = Rex;
//         owner = Person {
//             name = Ann;
//         };
//         toys = List<DogToy> (
//             [0] DogToy {
//                 name = Ball;
//             }
//         );
//     }
//
// with tabs for indentation, nil as `(null)`, and `<Maximum depth exceeded>` below five levels
// of nesting.

extension ObjectBase {
    /// How many levels of linked objects and collections a description shows.
    static let _strataDescriptionMaxDepth = 5

    func _strataDescription(depth: Int) -> String {
        let className = Swift.type(of: self).className()
        if depth > Self._strataDescriptionMaxDepth { return "<Maximum depth exceeded>" }
        if isInvalidated { return "[invalid object]" }
        if let dynamic = self as? DynamicObject { return dynamic.dynamicDescription(depth: depth) }
        guard let type = Swift.type(of: self) as? any ObjectSchemaProviding.Type else {
            return className + " {\n}"
        }
        var out = className + " {\n"
        for property in type.strataObjectSchema.properties where property.type != .linkingObjects {
            let value = type._strataValue(forKey: property.name, of: self)
            let text = Self._strataDescribe(value, depth: depth + 1)
            out += "\t\(property.name) = \(text.replacingOccurrences(of: "\n", with: "\n\t"));\n"
        }
        return out + "}"
    }

    /// One property value as a description shows it.
    static func _strataDescribe(_ value: Any?, depth: Int) -> String {
        guard let value else { return "(null)" }
        if let optional = value as? _StrataOptional, optional.strataIsNone { return "(null)" }
        if let object = value as? ObjectBase { return object._strataDescription(depth: depth) }
        if let collection = value as? _StrataDescribableCollection {
            return collection._strataDescription(depth: depth)
        }
        if let data = value as? Data { return "<\(data.count) total bytes>" }
        if let enumValue = value as? any PersistableEnum { return "\(enumValue.rawValue)" }
        // Optionals print their wrapped value, without `Optional(...)`.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let wrapped = mirror.children.first?.value {
            return _strataDescribe(wrapped, depth: depth)
        }
        return "\(value)"
    }
}

extension List: _StrataDescribableCollection {
    func _strataDescription(depth: Int) -> String {
        _strataDescribeElements("List<\(Element.self)>", depth: depth)
    }
}

extension MutableSet: _StrataDescribableCollection {
    func _strataDescription(depth: Int) -> String {
        _strataDescribeElements("MutableSet<\(Element.self)>", depth: depth)
    }
}

extension Map: _StrataDescribableCollection {
    func _strataDescription(depth: Int) -> String {
        if depth > ObjectBase._strataDescriptionMaxDepth { return "<Maximum depth exceeded>" }
        let items = self.keys.map { key -> String in
            let text = ObjectBase._strataDescribe(self[key] as Any, depth: depth + 1)
            return "\t[\(key)]: \(text.replacingOccurrences(of: "\n", with: "\n\t"))"
        }
        return "Map<\(Key.self), \(Value.self)> (\n" + items.joined(separator: ",\n") + (items.isEmpty ? "" : "\n")
            + ")"
    }
}
