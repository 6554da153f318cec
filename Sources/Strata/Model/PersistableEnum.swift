/// Lets an enum with an `Int` (any width), `String`, `Float` or `Double` raw value be a property
/// type; it is stored as its raw value. An enum with `Int` or `String` raw values can also be a
/// primary key (`@Persisted(primaryKey: true) var size: Size`).
///
/// ```swift
/// enum TaskStatus: String, PersistableEnum {
///     case open, inProgress, done
/// }
/// final class Todo: Object {
///     @Persisted var status = TaskStatus.open
///     @Persisted var history: List<TaskStatus>
/// }
/// ```
///
/// A property declared without a default starts at the enum's first case.
///
/// ## Concurrency
/// Adds no state; enums are values.
public protocol PersistableEnum: _Persistable, _PersistableInsideOptional, _Indexable, RealmCollectionValue,
    RawRepresentable, CaseIterable
where RawValue: _PropertyValueConvertible {}

extension PersistableEnum {
    /// The first case. The StrataPlugin rejects a `PersistableEnum` with no cases at build time.
    public static func _strataDefaultValue() -> Self {
        guard let first = allCases.first else {
            preconditionFailure("PersistableEnum \(Self.self) has no cases")
        }
        return first
    }

    public var _strataPropertyValue: PropertyValue { rawValue._strataPropertyValue }

    public static func _strataFromPropertyValue(_ value: PropertyValue) -> Self? {
        RawValue._strataFromPropertyValue(value).flatMap(Self.init(rawValue:))
    }
}
