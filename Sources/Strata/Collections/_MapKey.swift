/// Types a `Map` can use as keys: `String`, as in RealmSwift.
///
/// ## Concurrency
/// Marker; no state.
public protocol _MapKey: Hashable, Comparable {
    var _strataMapKey: String { get }
    init(_strataMapKey: String)
}
