import Foundation
internal import StrataCore

extension Realm {
    /// The projections of every object of the class `type` projects, live:
    /// `realm.objects(PersonProjection.self)` projects `realm.objects(Person.self)`.
    ///
    /// ```swift
    /// let people: Results<PersonProjection> = realm.objects(PersonProjection.self)
    /// let a = people.where { $0.firstName.starts(with: "A") }.sorted(byKeyPath: "lastName")
    /// print(a.first?.homeCity ?? "-")
    /// ```
    ///
    /// Queries, sort descriptors and aggregates name properties of the projected class, as in
    /// RealmSwift.
    public func objects<P: ProjectionObservable & RealmCollectionValue>(_ type: P.Type) -> Results<P> {
        let roots = objects(P.Root.self)
        return Results(realm: roots.realm, query: roots.query, objectType: P.Root.self, values: nil)
    }
}
