/// The last value a projection binding read, returned once the projected object is deleted.
/// Not API.
///
/// ## Concurrency
/// Confined, like the binding that holds it, to the thread of the projection's realm.
final class ProjectionBindingValue<V>: @unchecked Sendable {
    var value: V
    init(_ value: V) { self.value = value }
}
