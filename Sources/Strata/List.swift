/// An ordered collection property of a model: a to-many link (`List<Dog>`) or a list of values
/// (`List<String>`, `List<Int?>`).
///
/// ```swift
/// final class Person: Object {
///     @Persisted var dogs: List<Dog>
/// }
/// let person = Person()
/// person.dogs.append(Dog())
/// ```
///
/// `List` is a class, as in RealmSwift: `person.dogs.append(...)` changes the person's list. An
/// unmanaged list keeps its elements in memory; the object layer will add managed lists that read
/// and write the store.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it.
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, MutableCollection {
    @usableFromInline internal var elements: [Element]

    /// Creates an empty, unmanaged list.
    public init() {
        elements = []
    }

    /// Creates an unmanaged list holding `elements`, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.elements = Array(elements)
    }

    /// The position of the first element (0).
    public var startIndex: Int { elements.startIndex }
    /// One past the last element; equals `count`.
    public var endIndex: Int { elements.endIndex }

    /// The element at `position`; writing replaces it.
    @inlinable
    public subscript(position: Int) -> Element {
        get { elements[position] }
        set { elements[position] = newValue }
    }

    /// Appends `element` at the end.
    public func append(_ element: Element) {
        elements.append(element)
    }

    /// Appends the elements of `sequence` at the end, in order.
    public func append<S: Sequence>(objectsIn sequence: S) where S.Element == Element {
        elements.append(contentsOf: sequence)
    }

    /// Inserts `element` at `index` (0...count).
    public func insert(_ element: Element, at index: Int) {
        elements.insert(element, at: index)
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        elements.remove(at: index)
    }

    /// Removes the last element; the list must not be empty.
    public func removeLast() {
        elements.removeLast()
    }

    /// Removes every element.
    public func removeAll() {
        elements.removeAll()
    }

    /// Replaces the element at `index` with `object`.
    public func replace(index: Int, object: Element) {
        elements[index] = object
    }

    /// Moves the element at `from` to `to`, shifting the elements between.
    public func move(from: Int, to: Int) {
        let element = elements.remove(at: from)
        elements.insert(element, at: to)
    }

    /// The index of the first element equal to `element` (for objects: the same instance).
    public func index(of element: Element) -> Int? {
        elements.firstIndex(of: element)
    }
}

extension List: _Persistable, _PropertyValueConvertible {
    public static func _strataDefaultValue() -> List<Element> { List() }
    public var _strataPropertyValue: PropertyValue { .list(elements.map(\._strataPropertyValue)) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> List<Element>? {
        guard case .list(let values) = value else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for value in values {
            guard let element = Element._strataFromPropertyValue(value) else { return nil }
            elements.append(element)
        }
        return List(elements)
    }
}

extension List: CustomStringConvertible {
    /// The element type and the elements, e.g. `List<Int>[1, 2]`.
    public var description: String { "List<\(Element.self)>\(elements)" }
}
