import Foundation
internal import StrataCore

extension MigrationObject {
    /// The collection property stored in column `c` (whose value is `value`), as RealmSwift's
    /// migration objects give it: a `List`, `MutableSet` or `Map<String, _>` of
    /// `MigrationObject`s for links, of the element's Swift type for values. A new object's
    /// collection is live and writable (it takes new objects); an old object's is a copy of
    /// the old value.
    func collection(_ column: StoreColumn, _ c: Int, _ value: StoreValue) -> Any? {
        guard let element = Realm.elementType(column, links: MigrationObject.self) else { return nil }
        if !isOld, let binding, let i = binding.columns.firstIndex(of: c) {
            let state = ManagedObjectState(realm: realm, binding: binding, key: key)
            return Realm.collection(of: element, column.collection, owner: _CollectionOwner(state: state, index: i))
        }
        if column.type == .link {
            switch (column.collection, value) {
            case (.list, .list(let keys)):
                return List<MigrationObject>(keys.compactMap { plain($0, column: column) as? MigrationObject })
            case (.set, .list(let keys)):
                let set = MutableSet<MigrationObject>()
                set.insert(objectsIn: keys.compactMap { plain($0, column: column) as? MigrationObject })
                return set
            case (.map, .map(let entries)):
                let map = Map<String, MigrationObject?>()
                for (k, v) in entries { map[k] = plain(v, column: column) as? MigrationObject }
                return map
            default:
                return nil
            }
        }
        switch value {
        case .list(let elements):
            let values = elements.map { propertyScalar($0) ?? .null }
            return Realm.collection(of: element, column.collection, value: .list(values))
        case .map(let entries):
            return Realm.collection(
                of: element, column.collection, value: .map(entries.mapValues { propertyScalar($0) ?? .null }))
        default:
            return nil
        }
    }
}
