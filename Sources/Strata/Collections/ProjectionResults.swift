import Foundation

/// The projections of the objects that match a query: `Results` of a projection class, what
/// `realm.objects(PersonProjection.self)` gives.
@available(*, deprecated, renamed: "Results", message: "realm.objects(_:) of a projection class gives Results<P>")
public typealias ProjectionResults<P: ProjectionObservable & RealmCollectionValue> = Results<P>
