/// Paths through `LinkingObjects` properties in `where { }`: `$0.owners.name == "Ann"` (any
/// object linking here is named Ann) and `$0.owners.count > 0`.
extension Query {
    /// A property of the objects linking to the object (compared with `ANY`).
    public subscript<O: ObjectBase, V>(dynamicMember keyPath: KeyPath<O, V>) -> Query<V>
    where T == LinkingObjects<O> {
        member(propertyName(O.self, keyPath), collection: true)
    }
}

extension LinkingObjects: _QueryCollectionMarker {}
