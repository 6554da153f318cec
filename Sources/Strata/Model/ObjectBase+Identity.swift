import Foundation
internal import StrataCore
internal import StrataStorage

// Identity of model objects, with RealmSwift's rules (`RLMObjectBase isEqual:`/`hash`):
//
// - `isSameObject(as:)`: the same instance, or two managed objects of one realm (one shared
//   realm state, or two frozen realms of one file at one version) for the same stored object
//   (same class, same object key) that still exists.
// - `==`: `isSameObject(as:)` when the class has a primary key or the object is frozen;
//   otherwise the identity of the instance (a live object without a primary key has no value
//   that identifies it for as long as a `Set` may hold it).
// - `hash(into:)`: the primary key's value when the class has one (managed or not, so an object
//   keeps its hash when `add` makes it managed); the object key for a frozen object; otherwise
//   the instance.

extension ObjectBase {
    /// Whether this object and `object` are the same stored object: the same instance, or two
    /// managed objects of one realm for one object of the file, still present.
    ///
    /// ```swift
    /// let a = realm.objects(Dog.self).first!
    /// let b = realm.objects(Dog.self).first!
    /// a.isSameObject(as: b)   // true, although a !== b
    /// ```
    ///
    /// Unmanaged objects are the same only as themselves. Objects of different realm instances
    /// (another thread's realm, a frozen copy and its live object, frozen copies of different
    /// versions) are not the same.
    public func isSameObject(as object: ObjectBase?) -> Bool {
        guard let object else { return false }
        if self === object { return true }
        guard let a = _strataManaged, let b = object._strataManaged else { return false }
        guard a.key == b.key, a.binding.className == b.binding.className,
            Self._strataSameRealm(a.realm, b.realm)
        else { return false }
        // A deleted object is the same as nothing (RealmSwift: detached rows compare unequal).
        // Both rows are checked: equal keys of one realm version are one row.
        return Self._strataRowExists(a)
    }

    /// Whether `a` and `b` show one realm: one shared state, or frozen at one version of one file.
    static func _strataSameRealm(_ a: Realm, _ b: Realm) -> Bool {
        if a.realmState === b.realmState { return true }
        guard a.isFrozen, b.isFrozen, a.file === b.file,
            let va = a.realmState.snapshot?.read.version, let vb = b.realmState.snapshot?.read.version
        else { return false }
        return va == vb
    }

    /// Whether the object's row is present in its realm's version, without reporting a wrong
    /// thread (comparing objects is not an access RealmSwift checks).
    static func _strataRowExists(_ state: ManagedObjectState) -> Bool {
        if state.realm.isFrozen { return state.frozenRow != nil }
        guard state.realm.realmState.isOnOwner else { return true }
        return state.row() != nil
    }

    /// Whether `==` compares stored objects for this object (a managed object whose class has a
    /// primary key, or a frozen one).
    var _strataComparesStoredObject: Bool {
        guard let state = _strataManaged else { return false }
        return state.binding.primaryKeyIndex != nil || state.realm.isFrozen
    }

    /// `==` of `ObjectBase`, with RealmSwift's rules (see the top of this file).
    static func _strataEqual(_ lhs: ObjectBase, _ rhs: ObjectBase) -> Bool {
        if lhs === rhs { return true }
        guard lhs._strataComparesStoredObject else { return false }
        return lhs.isSameObject(as: rhs)
    }

    /// `hash(into:)` of `ObjectBase`, with RealmSwift's rules (see the top of this file).
    func _strataHash(into hasher: inout Hasher) {
        if let state = _strataManaged {
            // A deleted object keeps no key value to read: it hashes by its object key below.
            if let pk = state.binding.primaryKeyIndex, Self._strataRowExists(state) {
                Self._strataHashKeyValue(state.realm.propertyValue(state, pk), into: &hasher)
                return
            }
            if state.realm.isFrozen || state.binding.primaryKeyIndex != nil {
                hasher.combine(state.key)
                return
            }
        } else if let type = type(of: self) as? any ObjectSchemaProviding.Type,
            let value = type._strataPrimaryKeyValue(of: self)
        {
            Self._strataHashKeyValue(value, into: &hasher)
            return
        }
        hasher.combine(ObjectIdentifier(self))
    }

    /// Hashes a primary key's value (Int, String, ObjectId, UUID or nil; an enum key travels as
    /// its raw value).
    static func _strataHashKeyValue(_ value: PropertyValue, into hasher: inout Hasher) {
        switch value {
        case .int(let i): hasher.combine(i)
        case .string(let s): hasher.combine(s)
        case .objectId(let o): hasher.combine(o)
        case .uuid(let u): hasher.combine(u)
        default: hasher.combine(0 as UInt8)
        }
    }
}

extension ObjectSchemaProviding {
    /// The primary key's value of `object` (an instance of this class), or nil when the class has
    /// no primary key.
    static func _strataPrimaryKeyValue(of object: ObjectBase) -> PropertyValue? {
        guard let index = strataObjectSchema.properties.firstIndex(where: \.isPrimaryKey),
            let root = object as? StrataRoot
        else { return nil }
        return strataAccessors.properties[index].get(root)
    }
}

extension ObjectBase {
    /// The kind of model this object's class is, from its base class.
    var _strataKind: ObjectSchema.Kind {
        if self is EmbeddedObject { return .embedded }
        if self is AsymmetricObject { return .asymmetric }
        return .object
    }
}
