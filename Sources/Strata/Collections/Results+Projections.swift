import Foundation

extension Results where Element: ProjectionObservable {
    /// The results of the projected objects: the same query, each element the object a
    /// projection of these results reads.
    ///
    /// ```swift
    /// let people = realm.objects(PersonProjection.self).where { $0.age > 30 }
    /// let objects: Results<Person> = people.rootResults
    /// ```
    public var rootResults: Results<Element.Root> {
        Results<Element.Root>(realm: realm, query: query, objectType: objectType, values: nil)
    }
}
