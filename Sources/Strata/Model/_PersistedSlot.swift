/// The schema index of one `@Persisted` property, as written by generated code.
///
/// Not API: generated accessors assign it once per object (`object.$name = _PersistedSlot(...)`),
/// because generated code in another file cannot reach a wrapper's private `_name` storage, but can
/// reach its projection `$name`.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct _PersistedSlot: Sendable, Hashable {
    /// The property's index in `ObjectSchema.properties`, -1 when unbound.
    public var propertyIndex: Int
    /// A value for the wrapper to store (generated setters of properties with observers: Strata
    /// fills in unmanaged objects without running `willSet`/`didSet`, as RealmSwift does).
    @usableFromInline let pendingValue: _PendingValue?

    /// A slot holding `propertyIndex`.
    @inlinable
    public init(propertyIndex: Int) {
        self.propertyIndex = propertyIndex
        self.pendingValue = nil
    }

    /// A slot that stores `value` in an unmanaged object's wrapper when assigned to `$property`,
    /// leaving the property index as it is.
    public init<Value>(storing value: Value) {
        self.propertyIndex = -1
        self.pendingValue = _PendingValue(value)
    }

    public static func == (a: _PersistedSlot, b: _PersistedSlot) -> Bool {
        a.propertyIndex == b.propertyIndex && a.pendingValue === b.pendingValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(propertyIndex)
    }
}
