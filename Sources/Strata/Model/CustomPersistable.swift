import Foundation

/// A type stored as another type Strata supports, as in RealmSwift: declare what it is stored as
/// (`PersistedType`), how to make it from a stored value, and the value to store.
///
/// ```swift
/// struct IPv4: CustomPersistable, Hashable {
///     typealias PersistedType = String
///     var octets: [UInt8]
///     init(persistedValue: String) { octets = persistedValue.split(separator: ".").compactMap { UInt8($0) } }
///     var persistableValue: String { octets.map(String.init).joined(separator: ".") }
/// }
/// final class Host: Object {
///     @Persisted var address: IPv4
///     @Persisted var aliases: List<IPv4>
/// }
/// ```
///
/// StrataPlugin reads `typealias PersistedType = ...` at build time, so declare the conformance
/// (on the type or in an extension) in the target of the models that use it, with the alias
/// written in the same declaration. `PersistedType` is one of the value types a property can
/// have (`String`, `Int`, `Double`, `Data`, `Date`, `UUID`, ...); RealmSwift also allows an
/// `EmbeddedObject`, which Strata does not (a build error says so). Queries compare the
/// persisted values. Custom types cannot be primary keys or indexed.
///
/// ## Concurrency
/// Adds no state; the conforming type's rules apply.
public protocol CustomPersistable: _CustomPersistable {
    /// Makes a value from its stored form.
    init(persistedValue: PersistedType)
    /// The value to store.
    var persistableValue: PersistedType { get }
}

extension CustomPersistable {
    public static func _strataDefaultValue() -> Self {
        Self(persistedValue: PersistedType._strataDefaultValue())
    }

    public var _strataPropertyValue: PropertyValue { persistableValue._strataPropertyValue }

    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        PersistedType._strataFromPropertyValue(value).map { Self(persistedValue: $0) }
    }
}

// `URL` properties, stored as the URL's `absoluteString` (RealmSwift apps declare this mapping
// themselves, as `extension URL: FailableCustomPersistable`; that declaration still compiles
// against Strata, which then uses this one).
extension URL: _Persistable, _PersistableInsideOptional, RealmCollectionValue {
    /// `about:blank`, for a `URL` property declared without a default.
    public static func _strataDefaultValue() -> URL { URL(string: "about:blank")! }

    public var _strataPropertyValue: PropertyValue { .string(absoluteString) }

    public static func _strataFromPropertyValue(_ value: PropertyValue) -> URL? {
        if case .string(let string) = value { return URL(string: string) }
        return nil
    }
}
