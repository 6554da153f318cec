/// An unordered collection property of distinct values or objects (`MutableSet<String>`,
/// `MutableSet<Dog>`).
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var tags: MutableSet<String>
/// }
/// dog.tags.insert("friendly")
/// ```
///
/// A class, as in RealmSwift. An unmanaged set keeps its members in memory and iterates them in
/// insertion order; a stored set makes no order promise.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it.
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection {
    @usableFromInline internal var members: [Element] = []
    @usableFromInline internal var lookup: Set<Element> = []

    /// Creates an empty, unmanaged set.
    public init() {}

    /// Creates an unmanaged set of the distinct elements of `elements`.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        insert(objectsIn: elements)
    }

    /// The position of the first member (0).
    public var startIndex: Int { members.startIndex }
    /// One past the last member; equals `count`.
    public var endIndex: Int { members.endIndex }
    /// The member at `position` (insertion order for an unmanaged set).
    public subscript(position: Int) -> Element { members[position] }

    /// Whether `element` is a member.
    public func contains(_ element: Element) -> Bool {
        lookup.contains(element)
    }

    /// Adds `element` unless it is already a member.
    public func insert(_ element: Element) {
        if lookup.insert(element).inserted { members.append(element) }
    }

    /// Adds each element of `sequence` that is not already a member.
    public func insert<S: Sequence>(objectsIn sequence: S) where S.Element == Element {
        for element in sequence { insert(element) }
    }

    /// Removes `element` if it is a member.
    public func remove(_ element: Element) {
        if lookup.remove(element) != nil { members.removeAll { $0 == element } }
    }

    /// Removes every member.
    public func removeAll() {
        members.removeAll()
        lookup.removeAll()
    }

    /// Whether every member is also in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool {
        lookup.isSubset(of: other.lookup)
    }

    /// Whether the two sets share a member.
    public func intersects(_ other: MutableSet<Element>) -> Bool {
        !lookup.isDisjoint(with: other.lookup)
    }

    /// Adds the members of `other`.
    public func formUnion(_ other: MutableSet<Element>) {
        insert(objectsIn: other.members)
    }

    /// Keeps only the members also in `other`.
    public func formIntersection(_ other: MutableSet<Element>) {
        members.removeAll { !other.lookup.contains($0) }
        lookup.formIntersection(other.lookup)
    }

    /// Removes the members of `other`.
    public func subtract(_ other: MutableSet<Element>) {
        members.removeAll { other.lookup.contains($0) }
        lookup.subtract(other.lookup)
    }
}

extension MutableSet: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> MutableSet<Element> { MutableSet() }
    public var _strataPropertyValue: PropertyValue { .set(members.map(\._strataPropertyValue)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> MutableSet<Element>? {
        guard case .set(let values) = value else { return nil }
        let set = MutableSet()
        for value in values {
            guard let element = Element._strataFromPropertyValue(value) else { return nil }
            set.insert(element)
        }
        return set
    }
}
