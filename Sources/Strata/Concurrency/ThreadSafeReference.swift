import Foundation
internal import StrataCore
internal import StrataStorage

extension Object: ThreadConfined {}

extension Results: ThreadConfined {
    /// Results are never invalidated by deletes (they just lose the deleted objects).
    public var isInvalidated: Bool { false }
}

extension List: ThreadConfined {}
extension MutableSet: ThreadConfined {}
extension Map: ThreadConfined {}
extension LinkingObjects: ThreadConfined {
    /// The realm of the object whose backlinks these are; nil when unmanaged.
    public var realm: Realm? { owner?.realm }
    /// Whether the object whose backlinks these are was deleted.
    public var isInvalidated: Bool { owner.map { !$0.isValid } ?? false }
}

extension List: _OwnedCollection {
    var collectionOwner: _CollectionOwner? { owner }
    static func make(_ owner: _CollectionOwner) -> Self { Self(owner: owner) }
}

extension MutableSet: _OwnedCollection {
    var collectionOwner: _CollectionOwner? { owner }
    static func make(_ owner: _CollectionOwner) -> Self { Self(owner: owner) }
}

extension Map: _OwnedCollection {
    var collectionOwner: _CollectionOwner? { owner }
    static func make(_ owner: _CollectionOwner) -> Self { Self(owner: owner) }
}

extension LinkingObjects: _OwnedCollection {
    var collectionOwner: _CollectionOwner? { owner }
    static func make(_ owner: _CollectionOwner) -> Self { _strataManagedGet(owner.state, owner.index) }
}

/// Hands a live object or results to another thread, queue or task:
///
/// ```swift
/// let ref = ThreadSafeReference(to: dog)
/// DispatchQueue.global().async {
///     let realm = try! Realm()
///     guard let dog = realm.resolve(ref) else { return }   // nil if deleted meanwhile
///     try! realm.write { dog.age += 1 }
/// }
/// ```
///
/// A reference resolves once; it remembers the version it was made at, and resolving moves the
/// target realm forward to at least that version.
///
/// ## Concurrency
/// `Sendable`: it holds only the file's path, the class, the object key, the query or the operations of
/// results of values, and a version.
public final class ThreadSafeReference<Confined: ThreadConfined>: @unchecked Sendable {
    let path: String
    let version: UInt64
    let className: String
    let key: Int64?
    let query: StoreQuery?
    /// For a collection: the property of the object `key` it is.
    let propertyIndex: Int?
    /// For results of values: what they apply to the collection `propertyIndex` of `key`.
    let valueRecipe: _ValueResults.Recipe?
    let lock = NSLock()
    var resolved = false

    /// A reference to `value`, a managed object or results of a live realm.
    ///
    /// An unmanaged or invalidated object cannot be referenced: the process stops with a message
    /// (through `Realm.violationHandler`), as RealmSwift does.
    public init(to value: Confined) {
        let realm = value.realm
        var className = ""
        var key: Int64?
        var query: StoreQuery?
        var propertyIndex: Int?
        var valueRecipe: _ValueResults.Recipe?
        if let collection = value as? _OwnedCollection {
            if let owner = collection.collectionOwner {
                className = owner.state.binding.className
                key = owner.state.key
                propertyIndex = owner.index
            }
        } else if let object = value as? ObjectBase {
            if let state = object._strataManaged {
                className = state.binding.className
                key = state.key
            }
        } else if let projection = value as? _ProjectionRoot {
            if let state = projection._strataRootObject._strataManaged {
                className = state.binding.className
                key = state.key
            }
        } else if let results = value as? _AnyResults {
            if let source = results.valueSource {
                className = source.owner.state.binding.className
                key = source.owner.state.key
                propertyIndex = source.owner.index
                valueRecipe = source.recipe
            } else {
                className = results.elementClassName
                query = results.coreQuery
            }
        }
        if realm == nil || (value as? ObjectBase).map({ $0._strataManaged == nil }) == true
            || (value as? _OwnedCollection).map({ $0.collectionOwner == nil }) == true
        {
            Realm.violation(
                "Cannot construct a reference to an unmanaged object, which can be passed across threads directly.",
                fallback: ())
        } else if value.isInvalidated {
            Realm.violation("Cannot construct a reference to an invalidated object.", fallback: ())
        }
        self.path = realm?.file.path ?? ""
        self.version = realm?.currentVersion ?? 0
        self.className = className
        self.key = key
        self.query = query
        self.propertyIndex = propertyIndex
        self.valueRecipe = valueRecipe
    }

    /// Marks the reference used; false if it was resolved before.
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if resolved { return false }
        resolved = true
        return true
    }
}

extension Results: _AnyResults {
    var elementClassName: String {
        dynamicBinding?.className ?? (Element.self as? ObjectBase.Type)?.className() ?? "\(Element.self)"
    }
    var coreQuery: StoreQuery { query }
    var valueSource: _ValueResults? { values }
}

extension Realm {
    /// The version this realm shows.
    var currentVersion: UInt64 {
        if let w = writeTxn?.write { return w.version.rawValue }
        return current().read?.version.rawValue ?? 0
    }

    /// The object `reference` points to, in this realm, or nil if it was deleted. A reference
    /// resolves once; resolving inside a write transaction is an error.
    public func resolve<Confined: Object>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        guard prepareToResolve(reference) else { return nil }
        guard let key = reference.key,
            let binding = Confined.self == DynamicObject.self
                ? dynamicBinding(named: reference.className) : binding(for: Confined.self)
        else { return nil }
        guard currentRow(binding, key) != nil else { return nil }
        return object(binding, key: key) as? Confined
    }

    /// The results `reference` points to, re-run in this realm.
    public func resolve<Element: Object>(_ reference: ThreadSafeReference<Results<Element>>) -> Results<Element>? {
        guard prepareToResolve(reference), let query = reference.query else { return nil }
        if Element.self == DynamicObject.self {
            guard let binding = dynamicBinding(named: reference.className) else { return nil }
            return Results(
                realm: self, query: query, objectType: DynamicObject.self, values: nil, dynamicBinding: binding)
        }
        _ = binding(for: Element.self)
        return Results(realm: self, query: query)
    }

    /// The results of values `reference` points to (`list.where { $0 > 1 }`,
    /// `set.sorted(ascending: true)`), re-made on the same collection of the same object in this
    /// realm; nil if the object was deleted.
    public func resolve<Element: RealmCollectionValue>(
        _ reference: ThreadSafeReference<Results<Element>>
    ) -> Results<Element>? {
        guard prepareToResolve(reference) else { return nil }
        guard let recipe = reference.valueRecipe else {
            // Results of objects (or of projections of them) made in generic code: the query,
            // re-run here.
            guard let query = reference.query, let type = _resultsObjectType(Element.self),
                binding(for: type) != nil
            else { return nil }
            return Results(realm: self, query: query, objectType: type, values: nil)
        }
        guard let key = reference.key, let index = reference.propertyIndex,
            let binding = binding(named: reference.className), currentRow(binding, key) != nil,
            let state = object(binding, key: key)._strataManaged
        else { return nil }
        return Results(values: recipe.make(owner: _CollectionOwner(state: state, index: index)))
    }

    /// The list `reference` points to, on the same object in this realm; nil if the object was deleted.
    public func resolve<Element>(_ reference: ThreadSafeReference<List<Element>>) -> List<Element>? {
        resolveCollection(reference)
    }

    /// The set `reference` points to, on the same object in this realm; nil if the object was deleted.
    public func resolve<Element>(_ reference: ThreadSafeReference<MutableSet<Element>>) -> MutableSet<Element>? {
        resolveCollection(reference)
    }

    /// The map `reference` points to, on the same object in this realm; nil if the object was deleted.
    public func resolve<Key, Value>(_ reference: ThreadSafeReference<Map<Key, Value>>) -> Map<Key, Value>? {
        resolveCollection(reference)
    }

    /// The backlinks `reference` points to, of the same object in this realm; nil if it was deleted.
    public func resolve<Element>(_ reference: ThreadSafeReference<LinkingObjects<Element>>) -> LinkingObjects<Element>?
    {
        resolveCollection(reference)
    }

    private func resolveCollection<C: _OwnedCollection>(_ reference: ThreadSafeReference<C>) -> C? {
        guard prepareToResolve(reference) else { return nil }
        guard let key = reference.key, let index = reference.propertyIndex,
            let binding = binding(named: reference.className), currentRow(binding, key) != nil,
            let state = object(binding, key: key)._strataManaged
        else { return nil }
        return C.make(_CollectionOwner(state: state, index: index))
    }

    func prepareToResolve<C>(_ reference: ThreadSafeReference<C>) -> Bool {
        guard checkThread() else { return false }
        guard !isInWriteTransaction else {
            return Realm.violation(
                "Cannot resolve a thread safe reference inside a write transaction; resolve it before beginWrite.",
                fallback: false)
        }
        guard reference.path == file.path else {
            return Realm.violation(
                "Cannot resolve a thread safe reference from '\(reference.path)' in a realm of '\(file.path)'.",
                fallback: false)
        }
        guard reference.take() else {
            return Realm.violation("Can only resolve a thread safe reference once.", fallback: false)
        }
        if currentVersion < reference.version { refresh() }
        return true
    }
}
