import Foundation

/// One property of an observed object that a commit changed (`ObjectChange.change`).
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// Its value before the change, as the property's Swift type would hold it (`Int`,
    /// `String`, `Date`, ... or nil for a null), read from the previous version. For a link
    /// (to an object or embedded object): the object it linked to, read now (so with its current
    /// values; it may be deleted: check `isInvalidated`), as in RealmSwift. Nil for collections.
    public let oldValue: Any?
    /// Its value after the change, in the same form; for a link, the object it links to now.
    /// Nil for collections (read them from the object).
    public let newValue: Any?

    /// For a link property: the linked objects' table and keys before and after, made into
    /// objects of the realm the change is delivered to (``resolved(in:)``).
    var linkKeys: LinkKeys? = nil

    struct LinkKeys {
        let table: String
        let old: Int64?
        let new: Int64?
    }

    /// The change as delivered to `realm`: link keys become that realm's objects.
    func resolved(in realm: Realm) -> PropertyChange {
        guard let linkKeys else { return self }
        guard let binding = realm.file.allBindings().first(where: { $0.table.name == linkKeys.table }) else {
            return self
        }
        return PropertyChange(
            name: name, oldValue: linkKeys.old.map { realm.object(binding, key: $0) },
            newValue: linkKeys.new.map { realm.object(binding, key: $0) })
    }
}
