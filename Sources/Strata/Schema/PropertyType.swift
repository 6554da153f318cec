/// The storage type of a property (RealmSwift's names). All integer widths are `.int`; a
/// `PersistableEnum` has its raw value's type; collections have their element's type.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum PropertyType: String, Sendable, Hashable, CaseIterable {
    case int, bool, float, double, string, data, date, decimal128, objectId
    case UUID = "uuid"
    /// `AnyRealmValue`.
    case any
    /// A link to an object (to-one, or the element of a collection of objects).
    case object
    /// The inverse of links (`LinkingObjects`).
    case linkingObjects
}
