/// An ordered collection property of a model: a to-many link (`List<Dog>`) or a list of values
/// (`List<String>`, `List<Int?>`).
///
/// ```swift
/// final class Person: Object {
///     @Persisted var dogs: List<Dog>
/// }
/// let person = Person()
/// person.dogs.append(Dog())            // unmanaged: kept in memory
///
/// try realm.write {
///     realm.add(person)
///     person.dogs.append(Dog(value: ["name": "Ben"]))   // managed: written, the dog is added
/// }
/// ```
///
/// `List` is a class, as in RealmSwift: `person.dogs.append(...)` changes the person's list.
///
/// An unmanaged list keeps its elements in memory. The list read from a managed object is
/// managed: it is live (every read shows the realm's current version, including changes made
/// earlier in the current write transaction) and every mutation writes to the realm, so it must
/// happen inside a write transaction; outside one it is reported through `Realm.violationHandler`
/// ("Cannot modify managed objects outside of a write transaction.") and skipped. Appending an
/// unmanaged object to a managed list adds it to the realm. Deleting an object removes it from
/// every list that holds it.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it (a managed list is confined with
/// its realm).
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, MutableCollection {
    /// The elements of an unmanaged list (unused when managed).
    @usableFromInline internal var elements: [Element]
    /// The owning object and property of a managed list; nil when unmanaged.
    @usableFromInline internal let owner: _CollectionOwner?

    /// Creates an empty, unmanaged list.
    public init() {
        elements = []
        owner = nil
    }

    /// Creates an unmanaged list holding `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.elements = Array(elements)
        owner = nil
    }

    /// A managed list: a live view of property `owner.index` of `owner.state`'s object.
    init(owner: _CollectionOwner) {
        elements = []
        self.owner = owner
    }

    // MARK: Reading

    /// The current elements: the unmanaged elements, or the managed list's value in the realm's
    /// current version (decoded once per version).
    @usableFromInline
    var snapshot: [Element] {
        guard let owner else { return elements }
        return owner.read("List", as: [Element].self) { value in
            guard case .list(let values) = value else { return nil }
            return _decodeElements(values, as: Element.self)
        } ?? []
    }

    /// The position of the first element (0).
    public var startIndex: Int { 0 }
    /// One past the last element; equals `count`.
    public var endIndex: Int { count }
    /// The number of elements.
    public var count: Int { owner == nil ? elements.count : snapshot.count }
    /// Whether the list has no elements.
    public var isEmpty: Bool { count == 0 }

    /// The element at `position`; writing replaces it (inside a write transaction when managed).
    @inlinable
    public subscript(position: Int) -> Element {
        get {
            if owner == nil { return elements[position] }
            return managedElement(at: position)
        }
        set {
            if owner == nil {
                elements[position] = newValue
            } else {
                replace(index: position, object: newValue)
            }
        }
    }

    @usableFromInline
    func managedElement(at position: Int) -> Element {
        let current = snapshot
        guard position >= 0 && position < current.count else {
            fatalError("Index \(position) is out of bounds (must be less than \(current.count)).")
        }
        return current[position]
    }

    /// Iterates the elements the list holds when iteration starts; changing the list while
    /// iterating does not affect the iteration.
    public func makeIterator() -> IndexingIterator<[Element]> {
        snapshot.makeIterator()
    }

    /// The realm managing the list, or nil when it is unmanaged.
    public var realm: Realm? { owner?.realm }

    /// Whether the object owning the list was deleted from its realm (or its realm was
    /// invalidated); always false for unmanaged lists.
    public var isInvalidated: Bool {
        guard let owner else { return false }
        return !owner.isValid
    }

    /// The index of the first element equal to `element`, or nil. For objects: the same instance
    /// in an unmanaged list; the same stored object (any instance of it) in a managed list.
    public func index(of element: Element) -> Int? {
        guard owner != nil else { return elements.firstIndex(of: element) }
        let wanted = _CollectionElementIdentity(element)
        return snapshot.firstIndex { _CollectionElementIdentity($0) == wanted }
    }

    /// Whether the list holds `element` (compared as `index(of:)` does).
    public func contains(_ element: Element) -> Bool {
        index(of: element) != nil
    }

    // MARK: Mutating

    /// Applies `change` to the elements: in memory when unmanaged; when managed, to the realm's
    /// current value, written back inside a write transaction. `valid` checks indexes against the
    /// current count before anything changes (reporting the violation when they do not fit).
    func mutate(_ valid: (Int) -> Bool = { _ in true }, _ change: (inout [Element]) -> Void) {
        guard let owner else {
            if valid(elements.count) { change(&elements) }
            return
        }
        guard owner.checkWritable("List") else { return }
        var current = snapshot
        guard valid(current.count) else { return }
        change(&current)
        owner.write(.list(current.map { $0._strataPropertyValue }), decoded: current)
    }

    /// Replaces a range of the elements, which `edit` picks from the current elements (once
    /// `valid` accepted their count), with the elements it gives: in memory when unmanaged;
    /// when managed, the stored list's range alone is rewritten, inside a write transaction.
    func splice(_ valid: (Int) -> Bool, _ edit: ([Element]) -> (range: Range<Int>, with: [Element])) {
        guard let owner else {
            guard valid(elements.count) else { return }
            let (range, added) = edit(elements)
            elements.replaceSubrange(range, with: added)
            return
        }
        guard owner.checkWritable("List") else { return }
        let current = snapshot
        guard valid(current.count) else { return }
        let (range, added) = edit(current)
        guard !range.isEmpty || !added.isEmpty else { return }
        owner.splice(range, with: added)
    }

    /// Appends `element` at the end. Appending an unmanaged object to a managed list adds the
    /// object to the realm.
    public func append(_ element: Element) {
        guard let owner else { return mutate { $0.append(element) } }
        owner.append([element])
    }

    /// Appends the elements of `sequence` at the end, in order (one write when managed).
    public func append<S: Sequence>(objectsIn sequence: S) where S.Element == Element {
        let added = Array(sequence)
        guard let owner else { return mutate { $0.append(contentsOf: added) } }
        owner.append(added)
    }

    /// Inserts `element` at `index` (0...count).
    public func insert(_ element: Element, at index: Int) {
        splice({ _checkIndex(index, count: $0, allowingEnd: true) }) { _ in (index..<index, [element]) }
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        splice({ _checkIndex(index, count: $0) }) { _ in (index..<index + 1, []) }
    }

    /// Removes the last element; the list must not be empty.
    public func removeLast() {
        splice({ $0 > 0 || Realm.violation("Cannot remove the last element of an empty List.", fallback: false) }) {
            ($0.count - 1..<$0.count, [])
        }
    }

    /// Removes every element.
    public func removeAll() {
        mutate { $0.removeAll() }
    }

    /// Replaces the element at `index` with `object`.
    public func replace(index: Int, object: Element) {
        splice({ _checkIndex(index, count: $0) }) { _ in (index..<index + 1, [object]) }
    }

    /// Moves the element at `from` to `to`, shifting the elements between.
    public func move(from: Int, to: Int) {
        // One edit of the stretch between the two positions, rotated.
        splice({ _checkIndex(from, count: $0) && _checkIndex(to, count: $0) }) { current in
            let stretch = Swift.min(from, to)..<Swift.max(from, to) + 1
            var rotated = Array(current[stretch])
            rotated.insert(rotated.remove(at: from - stretch.lowerBound), at: to - stretch.lowerBound)
            return (from == to ? from..<from : stretch, from == to ? [] : rotated)
        }
    }

    /// Exchanges the elements at `i` and `j` (one write when managed).
    public func swapAt(_ i: Int, _ j: Int) {
        splice({ _checkIndex(i, count: $0) && _checkIndex(j, count: $0) }) { current in
            guard i != j else { return (i..<i, []) }
            let stretch = Swift.min(i, j)..<Swift.max(i, j) + 1
            var swapped = Array(current[stretch])
            swapped.swapAt(i - stretch.lowerBound, j - stretch.lowerBound)
            return (stretch, swapped)
        }
    }
}

extension List: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> List<Element> { List() }
    public var _strataPropertyValue: PropertyValue { .list(snapshot.map { $0._strataPropertyValue }) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> List<Element>? {
        guard case .list(let values) = value, let elements = _decodeElements(values, as: Element.self) else {
            return nil
        }
        return List(elements)
    }

    /// The managed list of property `index` of a managed object: a live view, not a copy.
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> List<Element> {
        List(owner: _CollectionOwner(state: state, index: index))
    }

    /// Replaces the contents of property `index` of a managed object with `newValue`'s elements
    /// (inside a write transaction).
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: List<Element>) {
        _CollectionOwner.assign(state, index, "List", from: newValue.owner, newValue.snapshot, as: PropertyValue.list)
    }
}

extension List: CustomStringConvertible {
    /// The element type and the elements, e.g. `List<Int>[1, 2]`.
    public var description: String { "List<\(Element.self)>\(snapshot)" }
}
