/// The value a `_PersistedSlot` carries to its wrapper. Immutable; used on the object's own
/// thread only.
@usableFromInline
final class _PendingValue: @unchecked Sendable {
    @usableFromInline let value: Any
    init(_ value: Any) { self.value = value }
}
