/// The base class of write-only models: objects that are inserted and never read back or linked
/// to (RealmSwift uses them for Data Ingest). Other objects cannot link to them.
///
/// ```swift
/// final class WeatherSensorReading: AsymmetricObject {
///     @Persisted(primaryKey: true) var _id: ObjectId
///     @Persisted var temperature = 0.0
/// }
/// ```
///
/// ## Concurrency
/// Not `Sendable`; same rules as `Object`.
open class AsymmetricObject: ObjectBase {
    /// Creates an unmanaged asymmetric object whose properties hold their declared default values.
    public required init() {}
}
