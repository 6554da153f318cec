internal import StrataCore

extension LinkingObjects: RealmCollection, _RealmCollectionQueries {
    /// The linking objects as live results, in key order until sorted; empty for an unmanaged
    /// object (which nothing links to).
    public var _strataResults: Results<Element> {
        guard let owner, let (_, source) = owner.realm.linkingObjectsSource(owner.state, owner.index) else {
            return Results(realm: owner?.realm, query: StoreQuery().filtered(by: .falsePredicate))
        }
        return Results(realm: owner.realm, query: StoreQuery().restricted(to: source))
    }

    /// The element type and the objects, e.g. `LinkingObjects<Person>[...]`.
    public var description: String { "LinkingObjects<\(Element.self)>\(objects)" }

    /// Whether `lhs` and `rhs` are the objects linking to the same object through the same
    /// property, in the same realm; two of unmanaged objects are equal when they name the same
    /// property (both are empty).
    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        _CollectionOwner.same(lhs.owner, rhs.owner) { lhs.propertyName == rhs.propertyName }
    }
}
