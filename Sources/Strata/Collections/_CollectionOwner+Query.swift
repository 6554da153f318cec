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

    /// Live results over the objects of this collection, in its order: queried, sorted and
    /// aggregated by the store.
    func results<Element: Object>(of _: Element.Type) -> Results<Element> {
        Results(realm: realm, query: StoreQuery().restricted(to: querySource))
    }

    /// The message of a query of an unmanaged collection, as RealmSwift words it.
    static let unmanagedQueryMessage = "This method may only be called on RLMArray instances retrieved from an RLMRealm"
}
