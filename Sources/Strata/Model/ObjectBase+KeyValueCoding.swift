import Foundation

// Access to properties by name: `object["name"]`, `value(forKey:)`, `setValue(_:forKey:)`, as
// RealmSwift offers them (through the Objective-C runtime there; through the generated accessors
// here, so only `@Persisted` properties have names).

extension ObjectBase {
    /// The value of the persisted property named `key` (its Swift name), or nil when it holds nil;
    /// assigning sets it, converting the value as `create(_:value:)` does (a dictionary for a
    /// link makes an object, an array for a list its elements).
    ///
    /// ```swift
    /// dog["name"] as? String          // "Rex"
    /// try realm.write { dog["age"] = 4 }
    /// ```
    ///
    /// An unknown name, a value that does not fit the property, or an assignment to a managed
    /// object outside a write transaction stops the process with a message naming the property
    /// (through `Realm.violationHandler`), as RealmSwift raises an exception.
    public subscript(key: String) -> Any? {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

    /// The value of the persisted property named `key`, or nil when it holds nil; see
    /// `subscript(_:)`.
    public func value(forKey key: String) -> Any? {
        if let dynamic = self as? DynamicObject { return dynamic.dynamicValue(forKey: key) }
        guard let type = Swift.type(of: self) as? any ObjectSchemaProviding.Type else {
            return Self._strataNoSchema(self, fallback: nil)
        }
        guard let value = type._strataValue(forKey: key, of: self) else {
            return Self._strataUnknownKey(key, of: self, fallback: nil)
        }
        if let optional = value as? _StrataOptional, optional.strataIsNone { return nil }
        return value
    }

    /// Sets the persisted property named `key` to `value` (nil for nil); see `subscript(_:)`.
    public func setValue(_ value: Any?, forKey key: String) {
        if let dynamic = self as? DynamicObject { return dynamic.setDynamicValue(value, forKey: key) }
        guard let type = Swift.type(of: self) as? any ObjectSchemaProviding.Type else {
            return Self._strataNoSchema(self, fallback: ())
        }
        type._strataSetValue(value, forKey: key, of: self)
    }

    static func _strataUnknownKey<T>(_ key: String, of object: ObjectBase, fallback: T) -> T {
        Realm.violation(
            "Invalid property name '\(key)' for class '\(Swift.type(of: object).className())': only @Persisted properties can be read and written by name.",
            fallback: fallback)
    }

    static func _strataNoSchema<T>(_ object: ObjectBase, fallback: T) -> T {
        Realm.violation(
            "\(Swift.type(of: object)) has no generated schema: add the StrataPlugin build plugin to its target.",
            fallback: fallback)
    }
}

extension ObjectSchemaProviding {
    /// The value of the property named `key` of `object` (an instance of this class), typed as the
    /// property is declared; nil for an unknown name.
    static func _strataValue(forKey key: String, of object: ObjectBase) -> Any? {
        guard let index = strataAccessors.index(forName: key), let root = object as? StrataRoot else { return nil }
        return root[keyPath: strataAccessors.properties[index].keyPath]
    }

    /// Sets the property named `key` of `object` (an instance of this class) to `value`, converted
    /// as `create(_:value:)` converts values; reports a violation when that is not possible.
    static func _strataSetValue(_ value: Any?, forKey key: String, of object: ObjectBase) {
        guard let index = strataAccessors.index(forName: key), let root = object as? StrataRoot else {
            return ObjectBase._strataUnknownKey(key, of: object, fallback: ())
        }
        let property = strataObjectSchema.properties[index]
        guard let set = strataAccessors.properties[index].set else {
            return Realm.violation(
                "Cannot set read-only property '\(className()).\(key)' (a LinkingObjects property is computed from the links to the object).",
                fallback: ())
        }
        do {
            let realm = object._strataManaged?.realm
            let converted = try Realm.propertyValue(
                fromAny: value, property: property, realm: realm, module: Realm.unboundBinding(self))
            try set(root, converted)
        } catch {
            Realm.violation("Invalid value for property '\(className()).\(key)': \(error)", fallback: ())
        }
    }
}
