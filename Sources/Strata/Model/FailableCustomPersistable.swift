import Foundation

/// A type stored as another type, whose conversion from the stored value may fail (`URL` from a
/// `String`, for example); otherwise as `CustomPersistable`.
///
/// Reading a stored value that does not convert reports it (through `Realm.violationHandler`,
/// then reads the type's default). `init?(persistedValue:)` must succeed for the persisted type's
/// default (`""`, `0`, ...) when a non-optional property has no default value of its own.
///
/// ## Concurrency
/// Adds no state; the conforming type's rules apply.
public protocol FailableCustomPersistable: _CustomPersistable {
    /// Makes a value from its stored form, or nil when it has none.
    init?(persistedValue: PersistedType)
    /// The value to store.
    var persistableValue: PersistedType { get }
}

extension FailableCustomPersistable {
    public static func _strataDefaultValue() -> Self {
        guard let value = Self(persistedValue: PersistedType._strataDefaultValue()) else {
            preconditionFailure(
                "Failed to default construct a \(Self.self) using the default value for persisted type \(PersistedType.self). This conversion must either succeed, the property must be optional, or you must explicitly specify a default value for the property."
            )
        }
        return value
    }

    public var _strataPropertyValue: PropertyValue { persistableValue._strataPropertyValue }

    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        PersistedType._strataFromPropertyValue(value).flatMap { Self(persistedValue: $0) }
    }
}
