/// An unordered collection property of distinct values or objects (`MutableSet<String>`,
/// `MutableSet<Dog>`).
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var tags: MutableSet<String>
/// }
/// dog.tags.insert("friendly")              // unmanaged: kept in memory
/// try realm.write { managedDog.tags.insert("friendly") }   // managed: written
/// ```
///
/// A class, as in RealmSwift. An unmanaged set keeps its members in memory and iterates them in
/// insertion order; a stored set makes no order promise.
///
/// The set read from a managed object is managed: live (reads show the realm's current version,
/// including changes made earlier in the current write transaction), and every mutation writes
/// to the realm, so it must happen inside a write transaction (outside one it is reported through
/// `Realm.violationHandler` and skipped). In a managed set, two instances of the same stored
/// object are the same member, as in RealmSwift; inserting an unmanaged object adds it to the
/// realm. Deleting an object removes it from every set that holds it.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it (a managed set is confined with
/// its realm).
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection {
    /// The members of an unmanaged set, in insertion order (unused when managed).
    @usableFromInline internal var members: [Element] = []
    /// The members of an unmanaged set, for membership tests.
    @usableFromInline internal var lookup: Set<Element> = []
    /// The owning object and property of a managed set; nil when unmanaged.
    @usableFromInline internal let owner: _CollectionOwner?

    /// Creates an empty, unmanaged set.
    public init() {
        owner = nil
    }

    /// Creates an unmanaged set of the distinct elements of `elements`.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        owner = nil
        insert(objectsIn: elements)
    }

    /// A managed set: a live view of property `owner.index` of `owner.state`'s object.
    init(owner: _CollectionOwner) {
        self.owner = owner
    }

    // MARK: Reading

    /// The current members: the unmanaged members, or the managed set's value in the realm's
    /// current version (decoded once per version).
    var snapshot: [Element] {
        guard let owner else { return members }
        return owner.read("MutableSet", as: [Element].self) { value in
            guard case .set(let values) = value else { return nil }
            return _decodeElements(values, as: Element.self)
        } ?? []
    }

    /// The members' identities (see `_CollectionElementIdentity`), for managed membership tests.
    private var identities: Set<_CollectionElementIdentity> {
        Set(snapshot.map { _CollectionElementIdentity($0) })
    }

    /// The position of the first member (0).
    public var startIndex: Int { 0 }
    /// One past the last member; equals `count`.
    public var endIndex: Int { count }
    /// The number of members.
    public var count: Int { owner == nil ? members.count : snapshot.count }
    /// Whether the set has no members.
    public var isEmpty: Bool { count == 0 }
    /// The member at `position` (insertion order for an unmanaged set, the stored order for a
    /// managed one).
    public subscript(position: Int) -> Element {
        if owner == nil { return members[position] }
        let current = snapshot
        guard position >= 0 && position < current.count else {
            fatalError("Index \(position) is out of bounds (must be less than \(current.count)).")
        }
        return current[position]
    }

    /// Iterates the members the set holds when iteration starts.
    public func makeIterator() -> IndexingIterator<[Element]> {
        snapshot.makeIterator()
    }

    /// The realm managing the set, or nil when it is unmanaged.
    public var realm: Realm? { owner?.realm }

    /// Whether the object owning the set was deleted from its realm (or its realm was
    /// invalidated); always false for unmanaged sets.
    public var isInvalidated: Bool {
        guard let owner else { return false }
        return !owner.isValid
    }

    /// Whether `element` is a member.
    public func contains(_ element: Element) -> Bool {
        guard owner != nil else { return lookup.contains(element) }
        let wanted = _CollectionElementIdentity(element)
        return snapshot.contains { _CollectionElementIdentity($0) == wanted }
    }

    /// Whether every member is also in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool {
        if owner == nil && other.owner == nil { return lookup.isSubset(of: other.lookup) }
        return identities.isSubset(of: other.identities)
    }

    /// Whether the two sets share a member.
    public func intersects(_ other: MutableSet<Element>) -> Bool {
        if owner == nil && other.owner == nil { return !lookup.isDisjoint(with: other.lookup) }
        return !identities.isDisjoint(with: other.identities)
    }

    // MARK: Mutating

    /// Applies `change` to the members of a managed set and writes them back, inside a write
    /// transaction. Only called when managed.
    private func mutateManaged(_ owner: _CollectionOwner, _ change: (inout [Element]) -> Void) {
        guard owner.checkWritable("MutableSet") else { return }
        var current = snapshot
        change(&current)
        owner.write(.set(current.map { $0._strataPropertyValue }), decoded: current)
    }

    /// Adds `element` unless it is already a member. Inserting an unmanaged object into a managed
    /// set adds the object to the realm.
    public func insert(_ element: Element) {
        insert(objectsIn: CollectionOfOne(element))
    }

    /// Adds each element of `sequence` that is not already a member (one write when managed).
    public func insert<S: Sequence>(objectsIn sequence: S) where S.Element == Element {
        guard let owner else {
            for element in sequence where lookup.insert(element).inserted { members.append(element) }
            return
        }
        owner.insert(Array(sequence))
    }

    /// Removes `element` if it is a member.
    public func remove(_ element: Element) {
        guard let owner else {
            if lookup.remove(element) != nil { members.removeAll { $0 == element } }
            return
        }
        let gone = _CollectionElementIdentity(element)
        mutateManaged(owner) { $0.removeAll { _CollectionElementIdentity($0) == gone } }
    }

    /// Removes every member.
    public func removeAll() {
        guard let owner else {
            members.removeAll()
            lookup.removeAll()
            return
        }
        mutateManaged(owner) { $0.removeAll() }
    }

    /// Adds the members of `other`.
    public func formUnion(_ other: MutableSet<Element>) {
        insert(objectsIn: other.snapshot)
    }

    /// Keeps only the members also in `other`.
    public func formIntersection(_ other: MutableSet<Element>) {
        guard let owner else {
            let keep = other.owner == nil ? other.lookup : Set(other.snapshot)
            members.removeAll { !keep.contains($0) }
            lookup.formIntersection(keep)
            return
        }
        let keep = other.identities
        mutateManaged(owner) { $0.removeAll { !keep.contains(_CollectionElementIdentity($0)) } }
    }

    /// Removes the members of `other`.
    public func subtract(_ other: MutableSet<Element>) {
        guard let owner else {
            let drop = other.owner == nil ? other.lookup : Set(other.snapshot)
            members.removeAll { drop.contains($0) }
            lookup.subtract(drop)
            return
        }
        let drop = other.identities
        mutateManaged(owner) { $0.removeAll { drop.contains(_CollectionElementIdentity($0)) } }
    }
}

extension MutableSet: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> MutableSet<Element> { MutableSet() }
    public var _strataPropertyValue: PropertyValue { .set(snapshot.map { $0._strataPropertyValue }) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> MutableSet<Element>? {
        guard case .set(let values) = value, let elements = _decodeElements(values, as: Element.self) else {
            return nil
        }
        return MutableSet(elements)
    }

    /// The managed set of property `index` of a managed object: a live view, not a copy.
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> MutableSet<Element> {
        MutableSet(owner: _CollectionOwner(state: state, index: index))
    }

    /// Replaces the members of property `index` of a managed object with `newValue`'s members
    /// (inside a write transaction).
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: MutableSet<Element>) {
        _CollectionOwner.assign(
            state, index, "MutableSet", from: newValue.owner, newValue.snapshot, as: PropertyValue.set)
    }
}

extension MutableSet: CustomStringConvertible {
    /// The element type and the members, e.g. `MutableSet<String>["a", "b"]`.
    public var description: String { "MutableSet<\(Element.self)>\(snapshot)" }
}
