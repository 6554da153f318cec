import Foundation
internal import StrataCore
internal import StrataStorage

// create(_:value:update:) and Object(value:): objects from dictionaries, arrays, JSON values and
// other objects.

extension Realm {
    /// Creates an object of `type` from `value` and returns it, managed.
    ///
    /// `value` is a dictionary of property names to values (unknown keys are ignored, missing
    /// properties take their declared defaults), an array of property values in declaration
    /// order (properties past its end take their defaults), an object of the same class
    /// (managed by any realm: its values are copied), or a JSON object from `JSONSerialization`. Nested dictionaries and arrays create
    /// linked objects. With `.modified`/`.all` and an existing primary key, the existing object is
    /// updated with the values given (for a dictionary: only the keys present).
    ///
    /// Not `throws`, as in RealmSwift: a failure (a duplicate primary key under `.error`, a
    /// missing primary key, a value of the wrong type) fails the write transaction, which
    /// `write`/`commitWrite` then cancels and throws.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        guard modifiableTransaction() != nil, pendingError == nil, let binding = binding(for: type) else { return T() }
        if update != .error {
            do { try Realm.requirePrimaryKey(binding) } catch {
                fail(translate(error, className: binding.className)); return T()
            }
        }
        return (createObject(binding, value: value, update: update) as? T) ?? T()
    }

    /// Creates an asymmetric (write-only) object of `type` from `value` (the forms `create`
    /// takes for objects). As in RealmSwift it returns nothing: the object is uploaded to the
    /// sync server and never readable on the device. In a realm that does not sync, it fails the
    /// write transaction (which `write`/`commitWrite` then cancels and throws): asymmetric
    /// objects exist only to be uploaded.
    public func create<T: AsymmetricObject>(_ type: T.Type, value: Any = [String: Any]()) {
        guard modifiableTransaction() != nil, pendingError == nil, let binding = binding(for: type) else { return }
        guard file.commitObserver != nil else {
            return fail(
                Realm.Error(
                    .fail,
                    "Cannot create the asymmetric object '\(binding.className)' in a realm that does not sync ('\(file.path)'): asymmetric objects are only uploaded. Open the realm with a syncConfiguration (import StrataSync), or make '\(binding.className)' an Object.",
                    path: file.path))
        }
        _ = createObject(binding, value: value, update: .error)
    }

    func createObject(_ binding: TableBinding, value: Any, update: UpdatePolicy) -> ObjectBase? {
        do {
            let fields = try Self.fields(of: value, binding: binding, realm: self)
            let props = binding.schema.properties
            if update != .error, let pk = binding.primaryKeyIndex, let pkAny = fields[props[pk].name] {
                let pkValue = try propertyValue(fromAny: pkAny, property: props[pk])
                if let realmState = coreScalar(pkValue),
                    let key = try writeTxn!.objectKey(binding.table, primaryKey: realmState)
                {
                    for (name, any) in fields {
                        guard let i = binding.propertyIndexByName[name], !props[i].isPrimaryKey,
                            props[i].type != .linkingObjects
                        else { continue }
                        let v = try propertyValue(fromAny: any, property: props[i])
                        let c = try coreValue(v, property: props[i], update: update)
                        try writeTxn!.set(binding.table, key: key, column: binding.columns[i], to: c)
                    }
                    stamp &+= 1
                    return object(binding, key: key)
                }
            }
            if let pk = binding.primaryKeyIndex, fields[props[pk].name] == nil,
                [PropertyType.int, .string].contains(props[pk].type), !props[pk].isOptional,
                props[pk].defaultValueSource == nil
            {
                throw Realm.Error(
                    .missingValue,
                    "Missing value for primary key property '\(binding.className).\(props[pk].name)'; include it in the value passed to create."
                )
            }
            let o = try Self.unmanagedObject(binding, fields: fields, realm: self)
            try addObject(o, update: update)
            return o
        } catch {
            fail(translate(error, className: binding.className))
            return nil
        }
    }

    /// The property values `value` gives, by property name.
    static func fields(of value: Any, binding: TableBinding, realm: Realm?) throws -> [String: Any] {
        let props = binding.schema.properties.filter { $0.type != .linkingObjects }
        switch value {
        case let dict as [String: Any]:
            return dict
        case let dict as NSDictionary:
            var out: [String: Any] = [:]
            for (k, v) in dict { if let k = k as? String { out[k] = v } }
            return out
        case let object as ObjectBase:
            guard type(of: object).className() == binding.className else {
                throw Realm.Error(
                    .invalidValue,
                    "Cannot create a '\(binding.className)' from an object of type '\(type(of: object).className())'.")
            }
            var out: [String: Any] = [:]
            let source = object._strataManaged?.binding ?? binding
            for (i, p) in source.schema.properties.enumerated() where p.type != .linkingObjects {
                out[p.name] = source.getters[i](object)
            }
            return out
        case let array as [Any]:
            // As RealmSwift: values in declaration order; properties past the end of a shorter
            // array keep their defaults.
            guard array.count <= props.count else {
                throw Realm.Error(
                    .invalidValue,
                    "Invalid array input: more values (\(array.count)) than properties (\(props.count)) of '\(binding.className)'. Give at most one value per property, in declaration order: \(props.map(\.name).joined(separator: ", "))."
                )
            }
            var out: [String: Any] = [:]
            for (p, v) in zip(props, array) { out[p.name] = v }
            return out
        case let array as NSArray:
            return try fields(of: array.map { $0 }, binding: binding, realm: realm)
        default:
            throw Realm.Error(
                .invalidValue,
                "Cannot create a '\(binding.className)' from a value of type \(type(of: value)); pass a dictionary, an array or an object."
            )
        }
    }

    /// A new unmanaged object of `binding`'s class with `fields` applied over its defaults.
    static func unmanagedObject(_ binding: TableBinding, fields: [String: Any], realm: Realm?) throws -> ObjectBase {
        let o = binding.make()
        for (name, any) in fields {
            guard let i = binding.propertyIndexByName[name], let set = binding.setters[i] else { continue }
            let p = binding.schema.properties[i]
            let v = try propertyValue(fromAny: any, property: p, realm: realm, module: binding)
            do {
                try set(o, v)
            } catch {
                throw Realm.Error(
                    .invalidValue, "Invalid value '\(any)' for property '\(binding.className).\(name)': \(error)")
            }
        }
        return o
    }

    func propertyValue(fromAny any: Any?, property p: Property) throws -> PropertyValue {
        try Self.propertyValue(fromAny: any, property: p, realm: self, module: nil)
    }

    /// Converts a user-supplied value (Swift value, Foundation/JSON value, nested dictionary or
    /// array) to the `PropertyValue` for property `p`.
    static func propertyValue(
        fromAny any: Any?, property p: Property, realm: Realm?, module: TableBinding?
    ) throws -> PropertyValue {
        guard let any, !(any is NSNull), !((any as? _StrataOptional)?.strataIsNone ?? false) else { return .null }
        if let pv = any as? PropertyValue { return realm.map { $0.detachingForeign(pv) } ?? pv }
        if p.collection != .none && !(any is _PropertyValueEncodable && !(any is [Any])) {
            var element = p
            element = Property(
                name: p.name, type: p.type, swiftType: p.swiftType, isOptional: p.isOptional,
                objectClassName: p.objectClassName)
            if p.collection == .map {
                guard let dict = any as? [String: Any] else {
                    throw Realm.Error(
                        .invalidValue, "Property '\(p.name)' is a Map; give a dictionary, not \(type(of: any)).")
                }
                var out: [String: PropertyValue] = [:]
                for (k, v) in dict {
                    out[k] = try propertyValue(fromAny: v, property: element, realm: realm, module: module)
                }
                return .map(out)
            }
            guard let array = any as? [Any] ?? (any as? NSArray)?.map({ $0 }) else {
                throw Realm.Error(
                    .invalidValue, "Property '\(p.name)' is a collection; give an array, not \(type(of: any)).")
            }
            let values = try array.map {
                try propertyValue(fromAny: $0, property: element, realm: realm, module: module)
            }
            return p.collection == .set ? .set(values) : .list(values)
        }
        if let e = any as? _PropertyValueEncodable {
            var v = e._strataPropertyValue
            if let realm { v = realm.detachingForeign(v) }
            return try coerce(v, to: p)
        }
        if p.type == .object, let target = p.objectClassName {
            let targetBinding =
                realm?.binding(named: target)
                ?? module.flatMap { Self.moduleBinding(named: target, from: $0, realm: realm) }
            guard let tb = targetBinding else {
                throw Realm.Error(
                    .invalidValue,
                    "Cannot create the '\(target)' object of property '\(p.name)': the class is not known to this realm; add it to objectTypes."
                )
            }
            let fields = try fields(of: any, binding: tb, realm: realm)
            return .object(try unmanagedObject(tb, fields: fields, realm: realm))
        }
        switch any {
        case let n as NSNumber: return try coerce(.double(n.doubleValue), to: p)
        default:
            throw Realm.Error(
                .invalidValue,
                "Invalid value '\(any)' of type \(type(of: any)) for property '\(p.name)' of type \(p.swiftType).")
        }
    }

    /// Numeric conversions JSON needs (1 for a Double property, 1.0 for an Int property) and
    /// string forms of ObjectId/UUID/Date-less types.
    static func coerce(_ v: PropertyValue, to p: Property) throws -> PropertyValue {
        switch (p.type, v) {
        case (.double, .int(let i)): return .double(Double(i))
        case (.float, .int(let i)): return .float(Float(i))
        case (.float, .double(let d)): return .float(Float(d))
        case (.int, .double(let d)) where d.rounded() == d && abs(d) < 9.2e18: return .int(Int64(d))
        case (.bool, .int(let i)) where i == 0 || i == 1: return .bool(i == 1)
        case (.objectId, .string(let s)):
            guard let o = try? ObjectId(string: s) else {
                throw Realm.Error(.invalidValue, "'\(s)' is not an ObjectId for property '\(p.name)'.")
            }
            return .objectId(o)
        case (.UUID, .string(let s)):
            guard let u = UUID(uuidString: s) else {
                throw Realm.Error(.invalidValue, "'\(s)' is not a UUID for property '\(p.name)'.")
            }
            return .uuid(u)
        case (.decimal128, .int(let i)): return .decimal128(Decimal128(Int(i)))
        case (.decimal128, .double(let d)): return .decimal128(Decimal128(d))
        default: return v
        }
    }

    /// A binding for a class of `from`'s module, made without a realm (for `Object(value:)`).
    static func moduleBinding(named name: String, from: TableBinding, realm: Realm?) -> TableBinding? {
        guard let t = from.type as? any ObjectSchemaProviding.Type,
            let target = t.strataModuleSchema.objectTypes.first(where: { $0.strataObjectSchema.className == name })
        else { return nil }
        if let realm { return realm.binding(for: target) }
        return unboundBinding(target)
    }

    /// The binding of `t` without a realm: made once per class and shared (`UnboundBindings`).
    static func unboundBinding(_ t: any ObjectSchemaProviding.Type) -> TableBinding {
        func make<U: ObjectSchemaProviding>(_ u: U.Type) -> TableBinding { TableBinding(u, table: desiredTable(u)) }
        return UnboundBindings.shared.binding(for: t) { make(t) }
    }
}

extension Object {
    /// Creates an unmanaged object from `value`: a dictionary of property names to values, an
    /// array of property values in declaration order (properties past its end keep their
    /// defaults; an empty array changes nothing), or another object of the class.
    /// Nested dictionaries and arrays make linked objects. A value that does not fit stops the
    /// process with a message naming the property (use `Realm.create` inside a write to get a
    /// thrown error instead).
    public convenience init(value: Any) {
        self.init()
        _strataApply(value: value)
    }
}

extension ObjectBase {
    /// Fills this new unmanaged object from `value` (see `Object.init(value:)`).
    func _strataApply(value: Any) {
        guard let t = type(of: self) as? any ObjectSchemaProviding.Type else {
            Realm.violation(
                "\(type(of: self)) has no generated schema: add the StrataPlugin build plugin to its target.",
                fallback: ())
            return
        }
        let binding = Realm.unboundBinding(t)
        do {
            let fields = try Realm.fields(of: value, binding: binding, realm: nil)
            let made = try Realm.unmanagedObject(binding, fields: fields, realm: nil)
            for (i, p) in binding.schema.properties.enumerated() where fields[p.name] != nil {
                try binding.setters[i]?(self, binding.getters[i](made))
            }
        } catch {
            Realm.violation("\(type(of: self))(value:): \(error)", fallback: ())
        }
    }
}

extension Optional: _StrataOptional {
    var strataIsNone: Bool { self == nil }
}

extension Realm {
    /// `value` with every object managed by another file replaced by an unmanaged deep copy, so
    /// `create` copies object graphs between realms.
    func detachingForeign(_ value: PropertyValue) -> PropertyValue {
        var copies: [ObjectIdentifier: ObjectBase] = [:]
        return detachingForeign(value, &copies)
    }

    private func detachingForeign(
        _ value: PropertyValue, _ copies: inout [ObjectIdentifier: ObjectBase]
    ) -> PropertyValue {
        switch value {
        case .object(let o):
            guard let state = o._strataManaged, state.realm.file !== file else { return value }
            return .object(ObjectBase.detachedCopy(of: o, &copies))
        case .list(let l): return .list(l.map { detachingForeign($0, &copies) })
        case .set(let l): return .set(l.map { detachingForeign($0, &copies) })
        case .map(let m): return .map(m.mapValues { detachingForeign($0, &copies) })
        default: return value
        }
    }
}

extension ObjectBase {
    /// An unmanaged deep copy of `o` (links and collections copied too; shared objects stay
    /// shared, cycles are kept).
    static func detachedCopy(of o: ObjectBase, _ copies: inout [ObjectIdentifier: ObjectBase]) -> ObjectBase {
        if let done = copies[ObjectIdentifier(o)] { return done }
        guard let t = type(of: o) as? any ObjectSchemaProviding.Type else { return o }
        let binding = o._strataManaged?.binding ?? Realm.unboundBinding(t)
        let copy = binding.make()
        copies[ObjectIdentifier(o)] = copy
        for (i, p) in binding.schema.properties.enumerated() where p.type != .linkingObjects {
            guard let set = binding.setters[i] else { continue }
            let v = detach(binding.getters[i](o), &copies)
            try? set(copy, v)
        }
        return copy
    }

    private static func detach(_ value: PropertyValue, _ copies: inout [ObjectIdentifier: ObjectBase]) -> PropertyValue
    {
        switch value {
        case .object(let o): return .object(o._strataManaged == nil ? o : detachedCopy(of: o, &copies))
        case .list(let l): return .list(l.map { detach($0, &copies) })
        case .set(let l): return .set(l.map { detach($0, &copies) })
        case .map(let m): return .map(m.mapValues { detach($0, &copies) })
        default: return value
        }
    }
}

extension Object {
    /// An unmanaged deep copy of this object: its properties, the objects it links to and its
    /// collections, read from its realm's current version. Use it to keep values after the realm
    /// is gone, or to edit a copy outside a write transaction. (RealmSwift has no such method.)
    /// An unmanaged object returns a copy of itself.
    public func detached() -> Self {
        var copies: [ObjectIdentifier: ObjectBase] = [:]
        if _strataManaged == nil {
            guard let t = type(of: self) as? any ObjectSchemaProviding.Type else { return self }
            let binding = Realm.unboundBinding(t)
            let copy = binding.make()
            for (i, p) in binding.schema.properties.enumerated() where p.type != .linkingObjects {
                try? binding.setters[i]?(copy, binding.getters[i](self))
            }
            return copy as! Self
        }
        return ObjectBase.detachedCopy(of: self, &copies) as! Self
    }
}
