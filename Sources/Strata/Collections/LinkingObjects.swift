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
/// empty (as in RealmSwift); the object layer will compute it for managed objects.
///
/// ## Concurrency
/// Not `Sendable`; follows the rules of the object that owns it.
public struct LinkingObjects<Element: ObjectBase>: RandomAccessCollection {
    /// The name of the linking property in `Element`.
    public let propertyName: String
    @usableFromInline internal var objects: [Element] = []
    /// The managed object whose backlinks these are (nil when unmanaged), for freeze and thaw.
    internal var owner: _CollectionOwner?

    /// Declares the inverse of `Element.propertyName`.
    public init(fromType _: Element.Type, property propertyName: String) {
        self.propertyName = propertyName
    }

    /// The position of the first object (0).
    public var startIndex: Int { objects.startIndex }
    /// One past the last object; equals `count`.
    public var endIndex: Int { objects.endIndex }
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

    /// The objects linking to a managed object, read now from its realm's current version.
    public static func _strataManagedGet(_ state: ManagedObjectState, _ index: Int) -> LinkingObjects<Element> {
        let property = state.realm.schemaProperty(state, index)
        state.realm.noteTableRead(className: property.objectClassName)
        var result = LinkingObjects(fromType: Element.self, property: property.linkOriginPropertyName ?? "")
        result.objects = state.realm.linkingObjects(state, index).compactMap { $0 as? Element }
        result.owner = _CollectionOwner(state: state, index: index)
        return result
    }

    /// `LinkingObjects` are computed; writing one does nothing.
    public static func _strataManagedSet(_ state: ManagedObjectState, _ index: Int, _ newValue: LinkingObjects<Element>)
    {}
}
