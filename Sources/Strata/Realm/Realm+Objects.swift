import Foundation
internal import StrataCore
internal import StrataStorage

// Object access: managed property reads and writes, add, create, delete and lookups.

extension Realm {
    // MARK: Managed property access (called through @Persisted)

    func currentRow(_ binding: TableBinding, _ key: Int64) -> RowReader? {
        do {
            return try current().row(binding.table, key: key)
        } catch {
            return readFailed(
                error, "cannot read '\(binding.className)' object \(key) from '\(file.path)': \(error)", fallback: nil)
        }
    }

    func objectExists(_ state: ManagedObjectState) -> Bool {
        state.row() != nil
    }

    /// The name of the object's class (for messages).
    @usableFromInline func className(_ state: ManagedObjectState) -> String { state.binding.className }

    /// The name of property `index` of the object's class (for messages).
    @usableFromInline func propertyName(_ state: ManagedObjectState, _ index: Int) -> String {
        state.binding.schema.properties[index].name
    }

    @inline(__always)
    func liveRow(_ state: ManagedObjectState) -> RowReader? {
        guard state.realm.checkThread() else { return nil }
        if let r = state.rowOnOwner() { return r }
        return missingRow(state)
    }

    /// The object owning a collection is missing: a violation with `message` when it was
    /// deleted, damage when nothing changed since it was found (see `missingRow`).
    func ownerMissing<T>(_ state: ManagedObjectState, _ message: @autoclosure () -> String, fallback: T) -> T {
        if file.damage != nil { return fallback }
        if state.bornStamp == stamp {
            let error = Realm.Error(
                .invalidDatabase,
                "object \(state.key) of '\(state.binding.className)' is listed by the file but cannot be found.",
                path: file.path)
            return readFailed(error, "", fallback: fallback)
        }
        return Realm.violation(message(), fallback: fallback)
    }

    /// A managed object's row is missing: deleted (the caller's mistake, a violation as in
    /// RealmSwift), or, when nothing changed since the object was found, a damaged file.
    @inline(never)
    func missingRow(_ state: ManagedObjectState) -> RowReader? {
        ownerMissing(
            state, "Object has been deleted or invalidated. ('\(state.binding.className)' object \(state.key))",
            fallback: nil)
    }

    // The scalar reads below are not inlinable and read a frozen object's row in place, so that
    // they retain nothing other threads share (the row's table, the binding's column array):
    // inlined into the caller, or with the row bound to a local (`if let r = state.frozenRow`),
    // each read retained and released both, and two threads reading one frozen snapshot were
    // slower than one (`strata-bench concurrency`, Docs/Performance.md).

    /// The `Int` value of property `index`, read in place.
    @usableFromInline func intValue(_ state: ManagedObjectState, _ index: Int) -> Int64? {
        noteRead(state, index)
        if state.frozenRow != nil { return state.frozenRow?.int(state.binding.columns[index]) }
        guard let r = liveRow(state) else { return nil }
        return r.int(state.binding.columns[index])
    }

    /// The `Double` value of property `index`, read in place.
    @usableFromInline func doubleValue(_ state: ManagedObjectState, _ index: Int) -> Double? {
        noteRead(state, index)
        if state.frozenRow != nil { return state.frozenRow?.double(state.binding.columns[index]) }
        guard let r = liveRow(state) else { return nil }
        return r.double(state.binding.columns[index])
    }

    /// The `String` value of property `index`.
    @usableFromInline func stringValue(_ state: ManagedObjectState, _ index: Int) -> String? {
        noteRead(state, index)
        if state.frozenRow != nil { return state.frozenRow?.string(state.binding.columns[index]) }
        guard let r = liveRow(state) else { return nil }
        return r.string(state.binding.columns[index])
    }

    /// The value of property `index` of a managed object.
    @usableFromInline func propertyValue(_ state: ManagedObjectState, _ index: Int) -> PropertyValue {
        noteRead(state, index)
        guard let r = liveRow(state) else { return .null }
        let value = r.value(state.binding.columns[index])
        switch value {
        case .link, .typedLink, .list, .map:
            if state.binding.isDynamic {
                return dynamicPropertyValue(value, state.binding.table.columns[state.binding.columns[index]])
            }
            return propertyValue(value, property: state.binding.schema.properties[index])
        default:
            return propertyScalar(value) ?? .null
        }
    }

    /// Converts a stored value of `property` to the API's form, making objects for links.
    func propertyValue(_ value: StoreValue, property: Property) -> PropertyValue {
        switch value {
        case .link(let k):
            guard let target = property.objectClassName, let b = binding(named: target) else { return .null }
            return .object(object(b, key: k))
        case .typedLink(let t, let k):
            guard let b = binding(named: t) else { return .null }
            return .object(object(b, key: k))
        case .list(let elements):
            let converted = elements.map { propertyValue($0, property: property) }
            return property.collection == .set ? .set(converted) : .list(converted)
        case .map(let entries):
            return .map(entries.mapValues { propertyValue($0, property: property) })
        default:
            return propertyScalar(value) ?? .null
        }
    }

    /// A managed object for `key` of `binding`'s class; `frozenRow` is its row if this realm is
    /// frozen and the caller has it (see `ManagedObjectState.frozenRow`).
    func object(_ binding: TableBinding, key: Int64, frozenRow: RowReader? = nil) -> ObjectBase {
        let o = binding.make()
        binding.bind(o)
        o._strataManaged = ManagedObjectState(realm: self, binding: binding, key: key, frozenRow: frozenRow)
        return o
    }

    /// A managed object for `key` of `binding`'s class, whose row in the current version the
    /// caller has just read (see `ManagedObjectState.init(realm:binding:key:currentRow:)`).
    @inline(__always)
    func object(_ binding: TableBinding, key: Int64, currentRow row: RowReader) -> ObjectBase {
        let o = binding.make()
        binding.bind(o)
        o._strataManaged = ManagedObjectState(realm: self, binding: binding, key: key, currentRow: row)
        return o
    }

    /// Writes property `index` of a managed object (inside a write transaction).
    @usableFromInline func setPropertyValue(_ state: ManagedObjectState, _ index: Int, _ value: PropertyValue) {
        guard let txn = modifiableTransaction() else { return }
        let binding = state.binding
        // The property's description is copied (its strings retained) only off the scalar path.
        if binding.schema.properties[index].isPrimaryKey {
            let property = binding.schema.properties[index]
            if let r = state.row(),
                propertyValue(r.value(binding.columns[index]), property: property).sameScalar(as: value)
            {
                return
            }
            fail(
                Realm.Error(
                    .invalidValue,
                    "Primary key can't be changed after an object is inserted ('\(binding.className).\(property.name)'). Create a new object and delete the old one instead."
                ))
            return
        }
        do {
            let realmState =
                try coreScalar(value) ?? coreValue(value, property: binding.schema.properties[index], update: .error)
            try txn.set(binding.table, key: state.key, column: binding.columns[index], to: realmState)
            stamp &+= 1
        } catch let e as Realm.Error {
            fail(e)
        } catch {
            fail(translate(error, className: binding.className))
        }
    }

    // MARK: Values into the store

    /// The store's form of `value` for `property`, adding unmanaged objects it links to.
    func coreValue(_ value: PropertyValue, property: Property, update: UpdatePolicy) throws -> StoreValue {
        switch value {
        case .object(let o):
            if property.type == .any {
                let key = try addForLink(o, update: update)
                return .typedLink(table: type(of: o).className(), key: key)
            }
            try checkLinkTarget(o, property)
            return .link(try addForLink(o, update: update))
        case .list(let elements), .set(let elements):
            var out: [StoreValue] = []
            out.reserveCapacity(elements.count)
            // A set keeps the first of equal values; the hash set keeps this linear in the count.
            var seen: Set<StoreValue> = []
            let isSet = property.collection == .set
            for e in elements {
                let c = try coreValue(e, property: property, update: update)
                if isSet, !seen.insert(c).inserted { continue }
                out.append(c)
            }
            return .list(out)
        case .map(let entries):
            var out: [String: StoreValue] = [:]
            for (k, v) in entries { out[k] = try coreValue(v, property: property, update: update) }
            return .map(out)
        case .linkingObjects:
            return .null
        default:
            return coreScalar(value) ?? .null
        }
    }

    /// Refuses an object of another class than the one `property` links to: a subclass of a
    /// model is a class of its own, stored in its own table (as in RealmSwift, whose links and
    /// lists hold exactly their declared class).
    func checkLinkTarget(_ o: ObjectBase, _ property: Property) throws {
        guard let expected = property.objectClassName else { return }
        let actual =
            o._strataManaged?.binding.className
            ?? (type(of: o) as? any ObjectSchemaProviding.Type)?.strataObjectSchema.className
        guard let actual, actual != expected else { return }
        throw Realm.Error(
            .invalidValue,
            "Object of type '\(actual)' cannot be stored in property '\(property.name)', which holds '\(expected)' objects. A subclass of a model class is a class of its own (stored in its own table), as in RealmSwift; declare the property with '\(actual)' to link to it."
        )
    }

    /// The key of `o` in this realm: itself if managed here, else added (embedded objects are
    /// always copied into a new object).
    func addForLink(_ o: ObjectBase, update: UpdatePolicy) throws -> Int64 {
        if let state = o._strataManaged {
            if state.realm.realmState === realmState || state.realm.file === file, !(o is EmbeddedObject) {
                return state.key
            }
            if state.realm.file !== file {
                throw Realm.Error(
                    .objectManagedByAnotherRealm,
                    "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            }
        }
        return try addObject(o, update: update)
    }

    /// Adds (or upserts) an unmanaged object, making it managed. Returns its key.
    @discardableResult
    func addObject(_ o: ObjectBase, update: UpdatePolicy) throws -> Int64 {
        guard let txn = writeTxn else {
            throw Realm.Error(
                .notInWriteTransaction,
                "Cannot modify managed objects outside of a write transaction. Call add inside realm.write { }.")
        }
        guard let binding = binding(for: type(of: o)) else {
            throw pendingError ?? Realm.Error(.fail, "\(type(of: o)) could not be bound to a table")
        }
        if let state = o._strataManaged {
            if state.realm.file === file { return state.key }
            throw Realm.Error(
                .objectManagedByAnotherRealm,
                "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
        }
        let props = binding.schema.properties
        // The realm's scratch array (left empty meanwhile, so an add nested in this one, for a
        // linked object, builds its own).
        var values = realmState.valueScratch
        realmState.valueScratch = []
        // Every column is written below (the steps, unmapped columns, LinkingObjects columns), so
        // a scratch array of the right length is reused as it is; filling it with nulls first
        // cost about 150 instructions per object.
        if values.count != binding.table.columns.count {
            values.removeAll(keepingCapacity: true)
            values.append(contentsOf: repeatElement(StoreValue.null, count: binding.table.columns.count))
        } else {
            for c in binding.linkingColumns { values[c] = .null }
        }
        var deferred: [(Int, PropertyValue)] = []
        for step in binding.addSteps {
            let i = step.property
            let v = binding.getters[i](o)
            guard step.mayDefer else {
                switch v {
                case .object, .list, .set, .map:
                    values[step.column] = try coreValue(v, property: props[i], update: update)
                default: values[step.column] = coreScalar(v) ?? .null
                }
                continue
            }
            let p = props[i]
            if case .object = v {
                deferred.append((i, v)); values[step.column] = binding.table.columns[step.column].defaultValue; continue
            }
            if p.type == .object || p.type == .any, case .list = v {
                deferred.append((i, v)); values[step.column] = .list([]); continue
            }
            if p.type == .object || p.type == .any, case .set = v {
                deferred.append((i, v)); values[step.column] = .list([]); continue
            }
            if p.type == .object || p.type == .any, case .map = v {
                deferred.append((i, v)); values[step.column] = .map([:]); continue
            }
            values[step.column] = try coreValue(v, property: p, update: update)
        }
        // Columns the models do not know (kept by an additive schema change) keep their defaults.
        for c in binding.unmappedColumns {
            values[c] = binding.table.columns[c].defaultValue
        }
        defer { realmState.valueScratch = values }
        let key: Int64
        if update != .error, let pk = binding.primaryKeyIndex,
            let existing = try txn.objectKey(binding.table, primaryKey: values[binding.columns[pk]])
        {
            key = existing
            for (i, p) in props.enumerated() where p.type != .linkingObjects && !p.isPrimaryKey {
                if deferred.contains(where: { $0.0 == i }) { continue }
                let c = binding.columns[i]
                try txn.set(binding.table, key: key, column: c, to: values[c])
            }
        } else {
            do {
                key = try txn.insert(into: binding.table, values: values)
            } catch let e as StoreError {
                throw translate(e, className: binding.className, object: o, binding: binding)
            }
        }
        binding.bind(o)
        // Checked here: an out-of-line call with nothing deferred cost about 23 instructions per
        // object of a bulk insert without links (callgrind, 100,000 adds).
        if !deferred.isEmpty { Self.releaseUnmanagedLinks(of: o, binding: binding, deferred) }
        o._strataManaged = ManagedObjectState(realm: self, binding: binding, key: key)
        stamp &+= 1
        for (i, v) in deferred {
            let c = binding.columns[i]
            let realmState = try coreValue(v, property: props[i], update: update)
            try txn.set(binding.table, key: key, column: c, to: realmState)
        }
        if !deferred.isEmpty { stamp &+= 1 }
        return key
    }

    func translate(
        _ error: Swift.Error, className: String, object: ObjectBase? = nil, binding: TableBinding? = nil
    ) -> Realm.Error {
        if let e = error as? Realm.Error { return e }
        // Damage met by a write: recorded for the file, so later writes are refused too.
        if Realm.isDamage(error) { return file.recordDamage(error) }
        guard let e = error as? StoreError else { return Realm.Error(storage: error, path: file.path) }
        switch e {
        case .duplicatePrimaryKey(let table, let column, let value):
            var shown = value
            if let object, let binding, let pk = binding.primaryKeyIndex {
                shown = binding.getters[pk](object).displayString
            }
            return Realm.Error(
                .primaryKeyExists,
                "Attempting to create an object of type '\(table)' with an existing primary key value '\(shown)' (property '\(column)'). Use add(_:update: .modified) or create(_:value:update: .modified) to update the existing object, or give the new object another primary key."
            )
        case .nullNotAllowed(let table, let column):
            return Realm.Error(.missingValue, "Property '\(table).\(column)' cannot be nil; give it a value.")
        case .typeMismatch, .valueTooLongForIndex, .reservedPrimaryKey:
            return Realm.Error(.invalidValue, e.description)
        case .objectMissing(let table, _):
            return Realm.Error(.invalidatedObject, "Object of type '\(table)' has been deleted or invalidated.")
        default:
            return Realm.Error(.fail, e.description)
        }
    }

    // MARK: Public API

    /// Adds an unmanaged object (and the unmanaged objects it links to) to the realm; the object
    /// becomes managed. Must be called inside a write transaction.
    ///
    /// With `.error` (the default) an object whose primary key exists makes the write fail; with
    /// `.modified` or `.all` the existing object is updated instead.
    ///
    /// Not `throws`, as in RealmSwift: a failure marks the write transaction as failed, and
    /// `write`/`commitWrite` cancels it and throws the error (nothing of it is written).
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        guard modifiableTransaction() != nil, pendingError == nil else { return }
        // As in RealmSwift, an object of another realm (another file, thread, queue or frozen
        // version) is refused here, at `add`, not later at commit.
        if let state = object._strataManaged, state.realm.realmState !== realmState {
            return Realm.violation(
                "Object is already managed by another Realm. Use create instead to copy it into this Realm.",
                fallback: ())
        }
        do {
            if update != .error, let b = binding(for: type(of: object)) { try Realm.requirePrimaryKey(b) }
            try addObject(object, update: update)
        } catch {
            fail(translate(error, className: type(of: object).className()))
        }
    }

    /// Adds each object of `objects` (see `add(_:update:)`).
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for o in objects {
            add(o, update: update)
            if pendingError != nil { return }
        }
    }

    /// Deletes `object` from the realm: links to it are removed (to-one links become nil, list
    /// entries disappear), embedded objects it owns are deleted, and the object becomes invalid.
    public func delete(_ object: ObjectBase) {
        guard let txn = modifiableTransaction() else { return }
        guard let state = object._strataManaged, state.realm.file === file else {
            return Realm.violation("Can only delete an object from the Realm it belongs to.", fallback: ())
        }
        do {
            guard try txn.delete(state.binding.table, key: state.key) else {
                if file.damage != nil { return }
                return Realm.violation("Object has been deleted or invalidated.", fallback: ())
            }
            stamp &+= 1
        } catch {
            fail(translate(error, className: state.binding.className))
        }
    }

    /// Deletes every object of `objects`.
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        for o in Array(objects) { delete(o) }
    }

    /// Deletes every object of every class.
    public func deleteAll() {
        guard let txn = modifiableTransaction() else { return }
        do {
            for table in txn.tables.values where !table.isEmbedded { try txn.deleteAll(table) }
            for table in txn.tables.values where table.isEmbedded { try txn.deleteAll(table) }
            stamp &+= 1
        } catch {
            fail(translate(error, className: ""))
        }
    }

    /// All objects of `type`, as live, lazily evaluated results.
    public func objects<Element: Object>(_ type: Element.Type) -> Results<Element> {
        guard checkThread() else { return Results(realm: self, query: StoreQuery().filtered(by: .falsePredicate)) }
        _ = binding(for: type)
        return Results(realm: self, query: StoreQuery())
    }

    /// The object of `type` whose primary key is `key`, or nil.
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        guard let pv = primaryKeyValue(key) else { return nil }
        return object(ofType: type, primaryKeyValue: pv)
    }

    func object<Element: Object>(ofType type: Element.Type, primaryKeyValue pv: PropertyValue) -> Element? {
        guard checkThread() else { return nil }
        guard let binding = binding(for: type) else { return nil }
        guard binding.primaryKeyIndex != nil else {
            return Realm.violation(
                "'\(binding.className)' does not have a primary key; declare one with @Persisted(primaryKey: true) or query with where/filter.",
                fallback: nil)
        }
        if binding.table.primaryKeyIsObjectKey {
            // Matched here rather than through StoreTransaction.objectKey(_:forKeyValue:):
            // passing the value on cost the `strata-bench w1` point_get 28 instructions a lookup, this 6
            // (callgrind, n = 20,000, 100,000 gets). Matched on `pv` itself, without converting it
            // with `coreScalar`: destroying that optional store value went through the runtime's
            // generic value witness (about 80 instructions a lookup). Int64.min is the nil key of
            // an optional Int key (RowLayout.nullKey), not a value.
            let k: Int64
            switch pv {
            case .int(let v) where v != binding.table.layout.nullKey: k = v
            case .null: guard let nullKey = binding.table.layout.nullKey else { return nil }; k = nullKey
            default: return nil
            }
            do {
                // The caller reads the object's properties next: their cache misses start now and
                // overlap with making the object.
                guard let row = try current().row(binding.table, key: k, prefetch: true) else { return nil }
                return (object(binding, key: k, currentRow: row) as! Element)
            } catch {
                return readFailed(
                    error, "cannot read '\(binding.className)' from '\(file.path)': \(error)", fallback: nil)
            }
        }
        guard let realmState = coreScalar(pv) else { return nil }
        do {
            let txn = current()
            guard let k = try txn.objectKey(binding.table, primaryKey: realmState) else { return nil }
            return (object(binding, key: k) as! Element)
        } catch {
            return readFailed(error, "cannot read '\(binding.className)' from '\(file.path)': \(error)", fallback: nil)
        }
    }

    /// The object of `type` whose optional primary key is nil, if there is one (a nil key is a
    /// key like any other: at most one object has it).
    ///
    /// ```swift
    /// let keyless = realm.object(ofType: Tag.self, forPrimaryKey: nil)
    /// ```
    ///
    /// `nil as Int?` (any optional holding nil) and `NSNull()` find the same object.
    public func object<Element: Object>(ofType type: Element.Type, forPrimaryKey key: _NilPrimaryKey?) -> Element? {
        object(ofType: type, primaryKeyValue: .null)
    }

    /// The object of `type` whose primary key is `key`, or nil (the overload for typed keys:
    /// no `Any` boxing).
    public func object<Element: Object, KeyType: _PropertyValueEncodable>(
        ofType type: Element.Type, forPrimaryKey key: KeyType
    ) -> Element? {
        object(ofType: type, primaryKeyValue: key._strataPropertyValue)
    }

    func primaryKeyValue(_ key: Any) -> PropertyValue? {
        switch key {
        case let v as Int: .int(Int64(v))
        case let v as Int64: .int(v)
        case let v as Int32: .int(Int64(v))
        case let v as Int16: .int(Int64(v))
        case let v as Int8: .int(Int64(v))
        case let v as String: .string(v)
        case let v as ObjectId: .objectId(v)
        case let v as UUID: .uuid(v)
        case let v as PropertyValue: v
        case is NSNull: .null
        case let v as _PropertyValueEncodable: v._strataPropertyValue
        case let v as _StrataOptional where v.strataIsNone: .null
        default: nil
        }
    }
}

extension PropertyValue {
    /// The value as a user reads it in messages.
    var displayString: String {
        switch self {
        case .null: "nil"
        case .bool(let b): "\(b)"
        case .int(let i): "\(i)"
        case .float(let f): "\(f)"
        case .double(let d): "\(d)"
        case .string(let s): s
        case .data(let d): "\(d.count) bytes"
        case .date(let d): "\(d)"
        case .decimal128(let d): "\(d)"
        case .objectId(let o): o.stringValue
        case .uuid(let u): u.uuidString
        default: kindName
        }
    }

    /// Whether two scalar values are equal.
    func sameScalar(as other: PropertyValue) -> Bool {
        guard let a = coreScalar(self), let b = coreScalar(other) else { return false }
        return a == b
    }
}

extension Realm {
    /// Schema property `index` of the object's class.
    @usableFromInline func schemaProperty(_ state: ManagedObjectState, _ index: Int) -> Property {
        state.binding.schema.properties[index]
    }

    /// The objects whose link property (the `LinkingObjects` property `index`'s origin) links to
    /// the object, in key order.
    @usableFromInline func linkingObjects(_ state: ManagedObjectState, _ index: Int) -> [ObjectBase] {
        guard let (originBinding, source) = linkingObjectsSource(state, index) else { return [] }
        do {
            let keys = try source.keys(in: current()) ?? []
            return keys.map { object(originBinding, key: $0) }
        } catch {
            return readFailed(
                error, "cannot read the links to '\(state.binding.className)' object \(state.key): \(error)",
                fallback: [])
        }
    }

    /// Binds the class named `name` from the module of `binding`'s class.
    func bindingForName(_ name: String, from binding: TableBinding) -> TableBinding? {
        guard let t = binding.type as? any ObjectSchemaProviding.Type,
            let target = t.strataModuleSchema.objectTypes.first(where: { $0.strataObjectSchema.className == name })
        else { return nil }
        return self.binding(for: target)
    }
}

extension Realm {
    /// Upserts need a primary key to find the existing object.
    static func requirePrimaryKey(_ binding: TableBinding) throws {
        if binding.primaryKeyIndex == nil {
            throw Realm.Error(
                .invalidValue,
                "'\(binding.className)' does not have a primary key and can not be updated. Use add(_:)/create(_:value:) without update, or declare a primary key with @Persisted(primaryKey: true)."
            )
        }
    }
}
