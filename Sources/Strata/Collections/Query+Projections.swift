import Foundation

extension Query {
    /// A property of the projected object, in a query of projections
    /// (`realm.objects(PersonProjection.self).where { $0.firstName == "Ann" }`): queries of
    /// projections name the projected class's properties, as their string form does.
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Root, V>) -> Query<V> where T: ProjectionObservable {
        let property = queryProperty(T.Root.self, keyPath)
        return member(property?.name, collection: isQueryCollection(property))
    }
}
