import Foundation

extension Realm {
    /// The projections of every object of the class `type` projects, live:
    /// `realm.objects(PersonProjection.self)` projects `realm.objects(Person.self)`.
    public func objects<P: ProjectionObservable>(_ type: P.Type) -> ProjectionResults<P> {
        ProjectionResults(objects(P.Root.self))
    }
}
