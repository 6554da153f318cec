import Foundation

extension Realm {
    /// Empties the unmanaged values of `o`'s properties that hold objects (links, collections and
    /// `AnyRealmValue`s of objects), as `add` makes `o` managed.
    ///
    /// A managed object reads its properties from the realm and never again from its `@Persisted`
    /// wrappers, but the wrappers would keep the objects they held alive: two unmanaged objects
    /// linking each other, once added, would keep each other forever. RealmSwift drops the
    /// unmanaged values when an object becomes managed; so does this. Only properties whose
    /// value holds an object are touched (`deferred`: the values `add` writes after the row),
    /// so adding objects without links costs nothing more. The setters store without running
    /// `willSet`/`didSet` (as for `create`).
    static func releaseUnmanagedLinks(of o: ObjectBase, binding: TableBinding, _ deferred: [(Int, PropertyValue)]) {
        for (index, value) in deferred where value.holdsObject {
            let empty: PropertyValue =
                switch binding.schema.properties[index].collection {
                case .none: .null
                case .list: .list([])
                case .set: .set([])
                case .map: .map([:])
                }
            try? binding.setters[index]?(o, empty)
        }
    }
}

extension PropertyValue {
    /// Whether the value is an object or a collection holding one.
    var holdsObject: Bool {
        switch self {
        case .object: true
        case .list(let values), .set(let values): values.contains { $0.holdsObject }
        case .map(let entries): entries.values.contains { $0.holdsObject }
        default: false
        }
    }
}
