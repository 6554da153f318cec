import Foundation

/// Declares a property of a `Projection` that reads (and, for writable key paths, writes) a
/// value of the projected object.
///
/// The key path says where the value is: a property (`\Person.firstName`), a value through
/// links or computed from one (`\Person.address?.city`, `\Person.lastName.localizedUppercase`),
/// or the values of a property of each object of a list or set
/// (`\Person.friends.projectTo.firstName`, a `ProjectedCollection`):
///
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName
///     @Projected(\Person.lastName) var surname
///     @Projected(\Person.address?.city) var homeCity
///     @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
/// }
/// ```
///
/// Setting a projected property sets the projected object's property, with the same rules:
/// a managed object is changed inside a write transaction only. Setting one whose key path is
/// read-only (computed, or through an optional link) is reported through
/// `Realm.violationHandler` and changes nothing.
///
/// The schema generator (StrataPlugin) lists a projection's `@Projected` properties, which
/// `description` and `observe(keyPaths:)` use; the wrapper itself needs no generated code.
///
/// ## Concurrency
/// Part of its projection, which is confined with its object's realm.
@propertyWrapper
public struct Projected<T: ObjectBase, Value> {
    let projectedKeyPath: KeyPath<T, Value>

    /// A projected property reading `projectedKeyPath` of the projected object.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        self.projectedKeyPath = projectedKeyPath
    }

    /// Not used: a projected property is only read and written through its projection.
    @available(*, unavailable, message: "@Projected can only be used as a property of a Projection")
    public var wrappedValue: Value {
        get { fatalError("@Projected can only be used as a property of a Projection") }
        // swift-format-ignore
        set { fatalError("@Projected can only be used as a property of a Projection") }
    }

    /// Reads and writes the projected value of the projection `observed`.
    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            observed.rootObject[keyPath: observed[keyPath: storageKeyPath].projectedKeyPath]
        }
        set {
            let keyPath = observed[keyPath: storageKeyPath].projectedKeyPath
            guard let writable = keyPath as? ReferenceWritableKeyPath<T, Value> else {
                return Realm.violation(
                    "The projected property '\(EnclosingSelf.self).\(Self.label(of: wrappedKeyPath, in: EnclosingSelf.self))' reads a key path of \(T.self) that cannot be written (a computed property, or a path through an optional link); set the property of the object (`rootObject`) instead.",
                    fallback: ())
            }
            observed.rootObject[keyPath: writable] = newValue
        }
    }

    /// The name of the projected property `keyPath` of `type`, from the generated list, or
    /// "?" when the projection has none.
    private static func label<P>(of keyPath: AnyKeyPath, in type: P.Type) -> String {
        guard let provider = type as? any _ProjectionSchemaProviding.Type else { return "?" }
        return provider._strataProjectedProperties.first { $0.projectionKeyPath == keyPath }?.label ?? "?"
    }
}
