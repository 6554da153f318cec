/// The inverse of a link: the objects of type `Element` whose property `propertyName` links to
/// the owning object. Computed by the store, never assigned.
///
/// ```swift
/// final class Dog: Object {
///     @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
/// }
/// ```
///
/// An unmanaged object has no stored links pointing at it, so its `LinkingObjects` is always
/// empty (as in RealmSwift). A managed object's is live: it reads the links of its realm's
/// current version whenever it is used.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it.
public struct LinkingObjects<Element: ObjectBase>: RandomAccessCollection {
    /// The name of the linking property in `Element`.
    public let propertyName: String
    /// The managed object whose backlinks these are (nil when unmanaged).
    internal var owner: _CollectionOwner?

    /// The objects of a frozen owner, read once (its realm never changes).
    private var frozenObjects: [Element]?

    /// The objects linking to the owner in its realm's current version: a value kept across
    /// writes follows them, as RealmSwift's live `LinkingObjects` do. Empty when unmanaged.
    @usableFromInline internal var objects: [Element] {
        frozenObjects ?? owner?.linkingObjects(as: Element.self) ?? []
    }

    /// Declares the inverse of `Element.propertyName`.
    public init(fromType _: Element.Type, property propertyName: String) {
        self.propertyName = propertyName
    }

    /// The position of the first object (0).
    public var startIndex: Int { 0 }
    /// One past the last object; equals `count`.
    public var endIndex: Int { objects.count }
    /// The object at `position`.
    public subscript(position: Int) -> Element { objects[position] }
}

extension LinkingObjects: _LinkingObjectsProtocol {
    /// Declares the inverse of `Element.propertyName` (used by `@Persisted(originProperty:)`).
    public init(propertyName: String) {
        self.init(fromType: Element.self, property: propertyName)
    }

    /// A `LinkingObjects` declared without an origin; the StrataPlugin rejects such declarations.
    public static func _strataDefaultValue() -> LinkingObjects<Element> {
        LinkingObjects(fromType: Element.self, property: "")
    }

    public var _strataPropertyValue: PropertyValue { .linkingObjects }

    /// The objects linking to a managed object, read from its realm's current version when used.
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> LinkingObjects<Element> {
        let property = state.realm.schemaProperty(state, index)
        var result = LinkingObjects(fromType: Element.self, property: property.linkOriginPropertyName ?? "")
        result.owner = _CollectionOwner(state: state, index: index)
        if state.realm.isFrozen { result.frozenObjects = result.owner?.linkingObjects(as: Element.self) }
        return result
    }

    /// `LinkingObjects` are computed; writing one does nothing.
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: LinkingObjects<Element>)
    {}
}
