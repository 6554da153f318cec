import Foundation
internal import StrataCore
internal import StrataStorage

// The dynamic API: objects of stored classes by class and property name, without model classes
// (`DynamicObject`). A stored class gets a binding of its own (`TableBinding.dynamic`), whose
// properties are its stored columns, so that dynamic objects share the paths of model objects:
// results and queries, collections, delete, freeze, identity and description.

extension Realm {
    /// All objects of the stored class named `className`, as live results of `DynamicObject`s.
    ///
    /// ```swift
    /// let dogs = realm.dynamicObjects("Dog")
    /// let name = dogs.first!["name"] as! String
    /// let old = dogs.filter("age > %@", 10).sorted(byKeyPath: "name")
    /// ```
    ///
    /// The class need not be among the configuration's `objectTypes`: every class the file
    /// stores can be read and written this way. The results take string queries
    /// (`filter(_:_:)`), sorting and distinct; the type-safe `where` needs a model class.
    ///
    /// A name the file has no class for, or an embedded class (its objects live only inside
    /// their owners), is reported through `Realm.violationHandler` (RealmSwift raises an
    /// exception); the results are then empty.
    public func dynamicObjects(_ className: String) -> Results<DynamicObject> {
        let empty = Results<DynamicObject>(
            realm: self, query: StoreQuery().filtered(by: .falsePredicate), objectType: nil, values: nil)
        guard checkThread() else { return empty }
        guard let binding = dynamicBinding(named: className) else {
            return Realm.violation(unknownClassMessage(className), fallback: empty)
        }
        guard !binding.table.isEmbedded else {
            return Realm.violation(
                "'\(className)' is an embedded class: its objects exist only inside their owners and cannot be queried on their own. Read them through the owner's property.",
                fallback: empty)
        }
        return Results(
            realm: self, query: StoreQuery(), objectType: DynamicObject.self, values: nil, dynamicBinding: binding)
    }

    /// The object of the stored class named `typeName` whose primary key is `key`, or nil.
    ///
    /// ```swift
    /// let rex = realm.dynamicObject(ofType: "Dog", forPrimaryKey: 7)
    /// ```
    ///
    /// `key` is given as for `object(ofType:forPrimaryKey:)` (an `Int`, `String`, `ObjectId`,
    /// `UUID`, or nil for an optional key). An unknown class, a class without a primary key, or
    /// a key of another type than the primary key's is reported through
    /// `Realm.violationHandler` (RealmSwift raises an exception) and gives nil.
    public func dynamicObject(ofType typeName: String, forPrimaryKey key: Any?) -> DynamicObject? {
        guard checkThread() else { return nil }
        guard let binding = dynamicBinding(named: typeName) else {
            return Realm.violation(unknownClassMessage(typeName), fallback: nil)
        }
        guard let pk = binding.primaryKeyIndex else {
            return Realm.violation(
                "'\(typeName)' does not have a primary key; query it with dynamicObjects(_:) and filter instead.",
                fallback: nil)
        }
        let column = binding.table.columns[binding.columns[pk]]
        do {
            let value = try dynamicStoreValue(key, column, className: typeName, update: .error)
            guard let k = try current().objectKey(binding.table, primaryKey: value) else { return nil }
            return object(binding, key: k) as? DynamicObject
        } catch let e as Realm.Error {
            return Realm.violation("Invalid primary key for '\(typeName)': \(e.message)", fallback: nil)
        } catch {
            return readFailed(error, "cannot read '\(typeName)' from '\(file.path)': \(error)", fallback: nil)
        }
    }

    /// Creates an object of the stored class named `typeName` from `value` and returns it,
    /// managed (inside a write transaction).
    ///
    /// ```swift
    /// try realm.write {
    ///     let rex = realm.dynamicCreate("Dog", value: ["name": "Rex", "age": 3])
    ///     let ann = realm.dynamicCreate("Person", value: ["name": "Ann", "dogs": [rex, ["name": "Bo"]]])
    /// }
    /// ```
    ///
    /// `value` is a dictionary of property names to values (unknown names are ignored, missing
    /// properties take the stored type's default: 0, "", false, an empty collection, nil for
    /// optional ones), an array of values in the stored property order, or an object of the
    /// same class. Links take a `DynamicObject` or model object of the linked class, or a
    /// dictionary or array that creates one. A primary key must be given (nil for an optional
    /// one). With `.modified`/`.all` and an existing primary key, the existing object is
    /// updated with the values given.
    ///
    /// Not `throws`, as in RealmSwift: an unknown class (`.invalidInput`), a value of the wrong
    /// type (`.invalidValue`), a missing primary key (`.missingValue`) or a duplicate one under
    /// `.error` (`.primaryKeyExists`) fails the write transaction, which `write`/`commitWrite`
    /// then cancels and throws as a `Realm.Error`. Outside a write transaction the call is
    /// reported through `Realm.violationHandler`.
    @discardableResult
    public func dynamicCreate(
        _ typeName: String, value: Any = [String: Any](), update: UpdatePolicy = .error
    )
        -> DynamicObject
    {
        guard modifiableTransaction() != nil, pendingError == nil else { return DynamicObject() }
        guard let binding = dynamicBinding(named: typeName) else {
            fail(Realm.Error(.invalidInput, unknownClassMessage(typeName)))
            return DynamicObject()
        }
        do {
            if binding.table.isEmbedded {
                throw Realm.Error(
                    .invalidValue,
                    "'\(typeName)' is an embedded class: create its objects as the value of their owner's property, not on their own."
                )
            }
            let key = try createDynamic(binding, value: value, update: update)
            return object(binding, key: key) as? DynamicObject ?? DynamicObject()
        } catch {
            fail(translate(error, className: typeName))
            return DynamicObject()
        }
    }

    // MARK: Bindings

    /// The binding through which `DynamicObject`s read the stored class `name` in this realm's
    /// version, or nil when the file has no such class.
    func dynamicBinding(named name: String) -> TableBinding? {
        let txn = current()
        guard let table = txn.tables[name] ?? (try? txn.storedTables())?[name] else { return nil }
        return file.dynamicBinding(for: table, model: file.binding(named: name)?.schema)
    }

    func unknownClassMessage(_ name: String) -> String {
        let names = ((try? current().storedTables()) ?? [:]).keys.sorted()
        return
            "Object type '\(name)' is not stored in '\(file.path)'. Its classes: \(names.isEmpty ? "none" : names.joined(separator: ", "))."
    }

    // MARK: Reading

    /// The value of the property `name` names, as `DynamicObject`'s subscript gives it.
    func dynamicValue(_ state: ManagedObjectState, named name: String) -> Any? {
        let binding = state.binding
        guard let i = binding.dynamicPropertyIndex(name) else {
            return Realm.violation(
                "Invalid property name '\(name)' for class '\(binding.className)'. Its properties: \(binding.schema.properties.map(\.name).joined(separator: ", ")).",
                fallback: nil)
        }
        let column = binding.table.columns[binding.columns[i]]
        if column.collection != .none { return dynamicCollection(state, i, column) }
        guard let row = liveRow(state) else { return nil }
        if column.type == .linkingObjects { return dynamicLinkingObjects(state, column) }
        return dynamicPlainValue(row.value(binding.columns[i]), column)
    }

    /// A stored value as `DynamicObject` gives it: Swift values, `DynamicObject`s for links.
    func dynamicPlainValue(_ value: StoreValue, _ column: StoreColumn) -> Any? {
        switch value {
        case .link(let k):
            guard let target = column.targetTable, let b = dynamicBinding(named: target) else { return nil }
            return object(b, key: k)
        case .typedLink(let t, let k):
            guard let b = dynamicBinding(named: t) else { return nil }
            return object(b, key: k)
        case .list(let l): return l.map { dynamicPlainValue($0, column) as Any }
        case .map(let m): return m.mapValues { dynamicPlainValue($0, column) as Any }
        default: return MigrationObject.scalar(value)
        }
    }

    /// `propertyValue(_:property:)` for dynamic objects: links become `DynamicObject`s.
    func dynamicPropertyValue(_ value: StoreValue, _ column: StoreColumn) -> PropertyValue {
        switch value {
        case .link(let k):
            guard let target = column.targetTable, let b = dynamicBinding(named: target) else { return .null }
            return .object(object(b, key: k))
        case .typedLink(let t, let k):
            guard let b = dynamicBinding(named: t) else { return .null }
            return .object(object(b, key: k))
        case .list(let elements):
            let converted = elements.map { dynamicPropertyValue($0, column) }
            return column.collection == .set ? .set(converted) : .list(converted)
        case .map(let entries):
            return .map(entries.mapValues { dynamicPropertyValue($0, column) })
        default:
            return propertyScalar(value) ?? .null
        }
    }

    /// The live collection of property `index`: `List`, `MutableSet` or `Map<String, _>` of
    /// `DynamicObject`s for links, of the element's Swift type otherwise.
    func dynamicCollection(_ state: ManagedObjectState, _ index: Int, _ column: StoreColumn) -> Any? {
        guard let element = Self.elementType(column, links: DynamicObject.self) else { return nil }
        return Self.collection(of: element, column.collection, owner: _CollectionOwner(state: state, index: index))
    }

    /// The Swift type of the elements of collection column `column` (`Int`, `String?`,
    /// `AnyRealmValue`); `links` (optional in a map) for a collection of objects.
    static func elementType<L: RealmCollectionValue & _PersistableInsideOptional>(
        _ column: StoreColumn, links: L.Type
    ) -> (any RealmCollectionValue.Type)? {
        func type<T: RealmCollectionValue & _PersistableInsideOptional>(_: T.Type) -> any RealmCollectionValue.Type {
            column.isNullable ? T?.self : T.self
        }
        switch column.type {
        case .link: return column.collection == .map ? L?.self : L.self
        case .mixed: return AnyRealmValue.self
        case .int: return column.isNullable ? Int?.self : Int.self
        case .bool: return column.isNullable ? Bool?.self : Bool.self
        case .float: return column.isNullable ? Float?.self : Float.self
        case .double: return column.isNullable ? Double?.self : Double.self
        case .string: return column.isNullable ? String?.self : String.self
        case .data: return type(Data.self)
        case .timestamp: return type(Date.self)
        case .objectId: return type(ObjectId.self)
        case .uuid: return type(UUID.self)
        case .decimal128: return type(Decimal128.self)
        case .linkingObjects: return nil
        }
    }

    /// A managed `List`, `MutableSet` or `Map<String, _>` of `element`s, for `owner`'s property.
    static func collection(
        of element: any RealmCollectionValue.Type, _ kind: StrataCore.CollectionKind, owner: _CollectionOwner
    ) -> Any {
        func make<T: RealmCollectionValue>(_: T.Type) -> Any {
            switch kind {
            case .list: return List<T>(owner: owner)
            case .set: return MutableSet<T>(owner: owner)
            default: return Map<String, T>(owner: owner)
            }
        }
        return make(element)
    }

    /// An unmanaged `List`, `MutableSet` or `Map<String, _>` of `element`s holding `value` (a
    /// stored collection converted by `convert`), or nil when an element does not fit.
    static func collection(
        of element: any RealmCollectionValue.Type, _ kind: StrataCore.CollectionKind, value: PropertyValue
    ) -> Any? {
        func make<T: RealmCollectionValue>(_: T.Type) -> Any? {
            switch (kind, value) {
            case (.list, .list(let values)), (.list, .set(let values)):
                return _decodeElements(values, as: T.self).map { List<T>($0) }
            case (.set, .list(let values)), (.set, .set(let values)):
                guard let elements = _decodeElements(values, as: T.self) else { return nil }
                let set = MutableSet<T>()
                set.insert(objectsIn: elements)
                return set
            case (.map, .map(let entries)):
                let map = Map<String, T>()
                for (k, v) in entries {
                    guard let e = T._strataFromPropertyValue(v) else { return nil }
                    map[k] = e
                }
                return map
            default:
                return nil
            }
        }
        return make(element)
    }

    /// The objects whose links `column` (a `LinkingObjects` property) inverts, in key order.
    func dynamicLinkingObjects(_ state: ManagedObjectState, _ column: StoreColumn) -> [DynamicObject] {
        guard let origin = column.targetTable, let property = column.originProperty,
            let b = dynamicBinding(named: origin)
        else { return [] }
        do {
            let keys = try current().allBacklinks(to: state.binding.table, key: state.key)
                .filter { $0.table == origin && $0.column == property }.map(\.key)
            return Set(keys).sorted().compactMap { object(b, key: $0) as? DynamicObject }
        } catch {
            return readFailed(error, "cannot read the links to '\(state.binding.className)': \(error)", fallback: [])
        }
    }

    // MARK: Writing

    /// Writes the property `name` names (`DynamicObject`'s subscript setter).
    func setDynamicValue(_ state: ManagedObjectState, named name: String, to value: Any?) {
        guard let txn = modifiableTransaction() else { return }
        let binding = state.binding
        guard let i = binding.dynamicPropertyIndex(name) else {
            return fail(
                Realm.Error(
                    .invalidInput,
                    "Invalid property name '\(name)' for class '\(binding.className)'. Its properties: \(binding.schema.properties.map(\.name).joined(separator: ", "))."
                ))
        }
        let c = binding.columns[i]
        let column = binding.table.columns[c]
        do {
            guard column.type != .linkingObjects else {
                throw Realm.Error(
                    .invalidValue,
                    "Cannot set read-only property '\(binding.className).\(name)' (a LinkingObjects property is computed from the links to the object)."
                )
            }
            guard state.row() != nil else {
                throw Realm.Error(
                    .invalidatedObject,
                    "Object has been deleted or invalidated. ('\(binding.className)' object \(state.key))")
            }
            let stored = try dynamicStoreValue(value, column, className: binding.className, update: .error)
            try txn.set(binding.table, key: state.key, column: c, to: stored)
            state.collectionCaches[i] = nil
            stamp &+= 1
        } catch {
            fail(translate(error, className: binding.className))
        }
    }

    /// Creates (or, with `update` and an existing primary key, updates) an object of
    /// `binding`'s class from `value`; returns its key.
    func createDynamic(_ binding: TableBinding, value: Any, update: UpdatePolicy) throws -> Int64 {
        guard let txn = writeTxn else {
            throw Realm.Error(.notInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
        }
        let table = binding.table
        let className = binding.className
        let properties = binding.schema.properties
        let stored = properties.indices.filter { properties[$0].type != .linkingObjects }
        var fields: [Int: Any?] = [:]
        switch value {
        case let dict as [String: Any]:
            for (name, v) in dict { if let i = binding.dynamicPropertyIndex(name) { fields[i] = .some(v) } }
        case let dict as NSDictionary:
            for (k, v) in dict {
                if let name = k as? String, let i = binding.dynamicPropertyIndex(name) { fields[i] = .some(v) }
            }
        case let array as [Any]:
            guard array.count <= stored.count else {
                throw Realm.Error(
                    .invalidValue,
                    "Invalid array input: more values (\(array.count)) than properties (\(stored.count)) of '\(className)'. Give at most one value per property, in the stored order: \(stored.map { properties[$0].name }.joined(separator: ", "))."
                )
            }
            for (i, v) in zip(stored, array) { fields[i] = .some(v) }
        case let object as ObjectBase:
            guard let source = object._strataManaged, source.binding.table.name == table.name else {
                throw Realm.Error(
                    .invalidValue,
                    "Cannot create a '\(className)' from an object of another class or an unmanaged object; pass a dictionary, an array or a managed object of '\(className)'."
                )
            }
            for i in stored {
                fields[i] = .some(dynamicValue(source.realm.dynamicState(source), named: properties[i].name))
            }
        default:
            throw Realm.Error(
                .invalidValue,
                "Cannot create a '\(className)' from a value of type \(type(of: value)); pass a dictionary, an array or an object."
            )
        }
        if update != .error, let pk = binding.primaryKeyIndex, let pkAny = fields[pk] {
            let pkValue = try dynamicStoreValue(
                pkAny, table.columns[binding.columns[pk]], className: className, update: update)
            if let key = try txn.objectKey(table, primaryKey: pkValue) {
                for (i, v) in fields where i != pk && properties[i].type != .linkingObjects {
                    let c = binding.columns[i]
                    try txn.set(
                        table, key: key, column: c,
                        to: dynamicStoreValue(v, table.columns[c], className: className, update: update))
                }
                stamp &+= 1
                return key
            }
        } else if update != .error {
            try Realm.requirePrimaryKey(binding)
        }
        var values = [StoreValue](repeating: .null, count: table.columns.count)
        for (i, c) in binding.columns.enumerated() {
            let column = table.columns[c]
            guard column.isStored else { continue }
            if let v = fields[i] {
                values[c] = try dynamicStoreValue(v, column, className: className, update: update)
            } else if column.isPrimaryKey, !column.isNullable {
                throw Realm.Error(
                    .missingValue,
                    "Missing value for primary key property '\(className).\(properties[i].name)'; include it in the value passed to dynamicCreate."
                )
            } else {
                values[c] = column.defaultValue
            }
        }
        let key = try txn.insert(into: table, values: values)
        stamp &+= 1
        return key
    }

    /// The state of the object `state` stands for, as a dynamic object (itself when it is one).
    func dynamicState(_ state: ManagedObjectState) -> ManagedObjectState {
        if state.binding.isDynamic { return state }
        guard let b = dynamicBinding(named: state.binding.table.name) else { return state }
        return ManagedObjectState(realm: self, binding: b, key: state.key)
    }

    /// The store's form of `value` for `column` of class `className`: Swift and Foundation
    /// values, `DynamicObject`s and model objects for links (dictionaries and arrays create
    /// linked objects), arrays and dictionaries for collections.
    /// - Throws: `Realm.Error` `.invalidValue` naming the property when the value does not fit.
    func dynamicStoreValue(
        _ value: Any?, _ column: StoreColumn, className: String, update: UpdatePolicy
    ) throws
        -> StoreValue
    {
        let path = "'\(className).\(column.name)'"
        func mismatch(_ v: Any) -> Realm.Error {
            Realm.Error(
                .invalidValue,
                "Invalid value '\(v)' of type \(type(of: v)) for property \(path), which holds \(Self.describe(column)) values."
            )
        }
        guard let value, !(value is NSNull), !((value as? _StrataOptional)?.strataIsNone ?? false) else {
            switch column.collection {
            case .list, .set: return .list([])
            case .map: return .map([:])
            case .none: break
            }
            if !column.isNullable, column.type != .mixed, column.type != .link {
                throw Realm.Error(
                    .invalidValue, "Property \(path) is not optional; give it a \(Self.describe(column)) value.")
            }
            return .null
        }
        if column.collection != .none {
            var element = column
            element.collection = .none
            if column.collection == .map {
                let entries: [String: Any]
                if let d = value as? [String: Any] {
                    entries = d
                } else if let d = value as? NSDictionary {
                    var out: [String: Any] = [:]
                    for (k, v) in d { if let k = k as? String { out[k] = v } }
                    entries = out
                } else if let keyed = value as? _DynamicMapEntries {
                    entries = keyed._strataDynamicEntries
                } else {
                    throw Realm.Error(
                        .invalidValue, "Property \(path) is a Map; give a dictionary, not \(type(of: value)).")
                }
                var out: [String: StoreValue] = [:]
                for (k, v) in entries {
                    out[k] = try dynamicStoreValue(v, element, className: className, update: update)
                }
                return .map(out)
            }
            guard let elements = Self.dynamicElements(value) else {
                throw Realm.Error(
                    .invalidValue, "Property \(path) is a collection; give an array, not \(type(of: value)).")
            }
            var out: [StoreValue] = []
            for e in elements {
                let v = try dynamicStoreValue(e, element, className: className, update: update)
                if column.collection == .set, out.contains(v) { continue }
                out.append(v)
            }
            return .list(out)
        }
        switch column.type {
        case .link:
            guard let target = column.targetTable, let targetBinding = dynamicBinding(named: target) else {
                throw mismatch(value)
            }
            if let object = value as? ObjectBase {
                let actual = object._strataManaged?.binding.table.name ?? type(of: object).className()
                guard actual == target else {
                    throw Realm.Error(
                        .invalidValue,
                        "Object of type '\(actual)' cannot be stored in property \(path), which holds '\(target)' objects."
                    )
                }
                if targetBinding.table.isEmbedded, object._strataManaged != nil {
                    return .link(try createDynamic(targetBinding, value: object, update: update))
                }
                return .link(try addForLink(object, update: update))
            }
            if value is [String: Any] || value is NSDictionary || value is [Any] {
                return .link(try createDynamic(targetBinding, value: value, update: update))
            }
            throw mismatch(value)
        case .mixed:
            if let object = value as? ObjectBase {
                guard let state = object._strataManaged else { throw mismatch(value) }
                return .typedLink(table: state.binding.table.name, key: try addForLink(object, update: update))
            }
            guard let e = value as? _PropertyValueEncodable else { throw mismatch(value) }
            let pv = e._strataPropertyValue
            if case .object(let o) = pv {
                return try dynamicStoreValue(o, column, className: className, update: update)
            }
            guard let scalar = coreScalar(pv) else { throw mismatch(value) }
            return scalar
        case .linkingObjects:
            throw mismatch(value)
        default:
            var pv: PropertyValue
            if let e = value as? _PropertyValueEncodable {
                pv = e._strataPropertyValue
            } else if let n = value as? NSNumber {
                pv = .double(n.doubleValue)
            } else {
                throw mismatch(value)
            }
            pv = try Realm.coerce(pv, to: Property(stored: column))
            guard let scalar = coreScalar(pv), Self.fits(scalar, column.type) else { throw mismatch(value) }
            return scalar
        }
    }

    /// The elements of an array, `NSArray`, `List`, `MutableSet` or other sequence given for a
    /// collection property (not of a string or data, which are values of their own).
    static func dynamicElements(_ value: Any) -> [Any]? {
        if value is String || value is Data { return nil }
        if let a = value as? [Any] { return a }
        if let a = value as? NSArray { return a.map { $0 } }
        func elements<S: Sequence>(_ s: S) -> [Any] { s.map { $0 as Any } }
        if let s = value as? any Sequence { return elements(s) }
        return nil
    }

    /// Whether a scalar `value` is of column type `type`.
    static func fits(_ value: StoreValue, _ type: ColumnType) -> Bool {
        switch (value, type) {
        case (.int, .int), (.bool, .bool), (.float, .float), (.double, .double), (.string, .string),
            (.data, .data), (.timestamp, .timestamp), (.objectId, .objectId), (.uuid, .uuid),
            (.decimal128, .decimal128):
            return true
        default:
            return false
        }
    }

    /// A column's value type in words, for messages: `int`, `string?`, `list<object Dog>`.
    static func describe(_ column: StoreColumn) -> String {
        Property(stored: column).description.split(separator: ":", maxSplits: 1).last.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? "\(column.type)"
    }
}
