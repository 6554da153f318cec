import Foundation

/// A view of an object that shows some of its values, renamed, read through links, or mapped
/// from its lists: declare one as a subclass with `@Projected` properties.
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.lastName) var surname
///     @Projected(\Person.address?.city) var homeCity
///     @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
/// }
///
/// let people = realm.objects(PersonProjection.self)      // live, like realm.objects(Person.self)
/// let ann = PersonProjection(projecting: annObject)
/// try realm.write { ann.surname = "Smith" }                // sets annObject.lastName
/// ```
///
/// A projection holds its object (`rootObject`) and reads every value from it when asked: a
/// projection of a managed object is live, as the object is; a frozen one (`freeze()`) reads
/// the frozen object. Two projections are equal when they project the same object.
///
/// The schema generator (StrataPlugin) lists each projection class's `@Projected` properties,
/// which `description` and `observe(keyPaths:)` use (Strata reads no type at run time).
///
/// ## Concurrency
/// Not `Sendable`: confined with its object's realm. A projection of a frozen object may be read
/// from any thread.
open class Projection<Root: Object>: ProjectionObservable, Hashable, CustomStringConvertible {
    /// The projected object.
    public let rootObject: Root

    /// A projection of `object`.
    public required init(projecting object: Root) {
        self.rootObject = object
    }

    /// The realm of the projected object, nil when it is unmanaged.
    public var realm: Realm? { rootObject.realm }

    /// Whether the projected object was deleted or its realm invalidated.
    public var isInvalidated: Bool { rootObject.isInvalidated }

    /// Whether the projected object is frozen.
    public var isFrozen: Bool { rootObject.isFrozen }

    /// A projection of the frozen projected object: its values in the realm's current version,
    /// readable from any thread.
    public func freeze() -> Self {
        Self(projecting: rootObject.freeze())
    }

    /// A projection of the live projected object in the calling thread's realm, or nil when it is
    /// not in the version that realm shows (as `Object.thaw()`).
    public func thaw() -> Self? {
        rootObject.thaw().map { Self(projecting: $0) }
    }

    /// Whether both project the same object (the same stored object, for managed objects).
    public static func == (lhs: Projection, rhs: Projection) -> Bool {
        lhs.rootObject == rhs.rootObject
    }

    /// Hashes the projected object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rootObject)
    }

    /// The projection's class, its object's class, and each projected property with the path it
    /// reads and its value.
    open var description: String {
        let properties = Self._strataProjectedProperties.map { property in
            let value = self[keyPath: property.projectionKeyPath].map { "\($0)" } ?? "nil"
            return "\t\(property.label)(\\.\(property.origin)) = \(value);"
        }
        return "\(type(of: self))<\(Root.self)> {\n\(properties.joined(separator: "\n"))\n}"
    }

    /// The generated list of this class's projected properties; empty for a class the schema
    /// generator did not see.
    static var _strataProjectedProperties: [_ProjectedProperty] {
        (self as? any _ProjectionSchemaProviding.Type)?._strataProjectedProperties ?? []
    }
}
