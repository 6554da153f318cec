/// Lets `@Persisted(originProperty:)` build a `LinkingObjects`. Not API.
///
/// ## Concurrency
/// Marker; no state.
public protocol _LinkingObjectsProtocol: _Persistable {
    init(propertyName: String)
}
