import Foundation

/// An object of a stored class read and written by property name, without its model class:
/// what `Realm.dynamicObjects(_:)`, `Realm.dynamicObject(ofType:forPrimaryKey:)` and
/// `Realm.dynamicCreate(_:value:update:)` return.
///
/// ```swift
/// let dog = realm.dynamicObjects("Dog").first!
/// print(dog["name"] as! String)          // by subscript
/// print(dog.age as! Int)                 // by member name (dynamic member lookup)
/// let puppies = dog.dynamicList("puppies")   // List<DynamicObject>
/// try realm.write { dog["age"] = 4 }
/// ```
///
/// Any class the file stores can be read this way, also one the realm's configuration does not
/// name in `objectTypes` (a file written by another app or an older version of this one).
/// Properties are named as the file stores them; a property a model maps to another stored
/// name with `propertiesMapping()` answers to both names.
///
/// Reading gives `Int` (any integer width), `Bool`, `Float`, `Double`, `String`, `Data`,
/// `Date`, `ObjectId`, `UUID`, `Decimal128` or nil; a `DynamicObject` for a link; a
/// `List`, `MutableSet` or `Map<String, _>` (of `DynamicObject` for links, of the value type
/// otherwise: `List<Int>`, `MutableSet<String?>`); the plain value (or a `DynamicObject`) an
/// `AnyRealmValue` holds; an array of `DynamicObject`s for `LinkingObjects`. Writing (inside a
/// write transaction) takes the same forms, nested dictionaries and arrays creating linked
/// objects as `dynamicCreate` does; a value that does not fit the property fails the write
/// transaction, so `write` throws a `Realm.Error` with code `.invalidValue` naming the
/// property. An unknown property name is reported through `Realm.violationHandler` (RealmSwift
/// raises an exception); inside a write transaction it fails the transaction the same way.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm, like every managed object. A frozen dynamic object
/// (`freeze()`) may be read from any thread.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// Creates an object that belongs to no realm; a `DynamicObject` is useful only managed (the
    /// realm's `dynamic...` methods make them).
    public required init() {}

    /// The stored class's schema: its name and properties as the file stores them.
    public override var objectSchema: ObjectSchema {
        _strataManaged?.binding.schema ?? ObjectSchema(className: "DynamicObject", kind: .object, properties: [])
    }

    /// The value of the property named `member` (`dog.name`): the same as `self[member]`.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// The value of the property named `key`: the same as `self[key]` (RealmSwift's key-value
    /// coding fallback).
    public func value(forUndefinedKey key: String) -> Any? {
        self[key]
    }

    /// Sets the property named `key`: the same as `self[key] = value`.
    public func setValue(_ value: Any?, forUndefinedKey key: String) {
        self[key] = value
    }

    /// The stored class's name and each property's value, in RealmSwift's layout.
    func dynamicDescription(depth: Int) -> String {
        guard let state = _strataManaged else { return "DynamicObject {\n}" }
        var out = state.binding.className + " {\n"
        for property in state.binding.schema.properties where property.type != .linkingObjects {
            let value = state.realm.dynamicValue(state, named: property.name)
            let text = Self._strataDescribe(value, depth: depth + 1)
            out += "\t\(property.name) = \(text.replacingOccurrences(of: "\n", with: "\n\t"));\n"
        }
        return out + "}"
    }

    /// The property `name` names, reading through the state of a managed object; reports an
    /// unknown name and answers nil.
    func dynamicValue(forKey name: String) -> Any? {
        guard let state = _strataManaged else { return Self.unmanaged(fallback: nil) }
        return state.realm.dynamicValue(state, named: name)
    }

    /// Writes the property `name` names (see the type's documentation).
    func setDynamicValue(_ value: Any?, forKey name: String) {
        guard let state = _strataManaged else { return Self.unmanaged(fallback: ()) }
        state.realm.setDynamicValue(state, named: name, to: value)
    }

    private static func unmanaged<T>(fallback: T) -> T {
        Realm.violation(
            "This DynamicObject belongs to no realm: use the objects Realm.dynamicObjects(_:), dynamicObject(ofType:forPrimaryKey:) and dynamicCreate(_:value:update:) return.",
            fallback: fallback)
    }
}
