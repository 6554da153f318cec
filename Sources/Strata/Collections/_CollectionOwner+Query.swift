internal import StrataCore

extension _CollectionOwner {
    /// The store's name for this collection as the source of a query: the owner's table and key
    /// and the property's column.
    var querySource: StoreQuerySource {
        let binding = state.binding
        return .collection(
            ownerTable: binding.table.name, ownerKey: state.key,
            column: binding.table.columns[binding.columns[index]].name)
    }

    /// Live results over the elements of this list or set (`kind`), in its order: for objects
    /// queried, sorted and aggregated by the store; for values over the collection's values.
    func results<Element: RealmCollectionValue>(of _: Element.Type, kind: _ValueResults.Kind) -> Results<Element> {
        if let type = Element.self as? ObjectBase.Type {
            return Results(
                realm: realm, query: StoreQuery().restricted(to: querySource), objectType: type, values: nil)
        }
        return Results(values: _ValueResults(owner: self, kind: kind))
    }

    /// The empty results of a query of an unmanaged collection, after reporting the violation
    /// as RealmSwift raises its exception.
    static func unmanagedResults<Element: RealmCollectionValue>() -> Results<Element> {
        Realm.violation(unmanagedQueryMessage, fallback: Results.empty)
    }

    /// Whether two collections are the same: the same property of the same object in the same
    /// realm when both are managed, `unmanagedEqual()` when neither is.
    static func same(_ a: _CollectionOwner?, _ b: _CollectionOwner?, unmanagedEqual: () -> Bool) -> Bool {
        switch (a, b) {
        case (nil, nil): unmanagedEqual()
        case (let a?, let b?): a.isSame(as: b) && a.realm == b.realm
        default: false
        }
    }

    /// The message of a query of an unmanaged collection, as RealmSwift words it.
    static let unmanagedQueryMessage = "This method may only be called on RLMArray instances retrieved from an RLMRealm"
}
