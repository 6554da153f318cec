/// Comparisons of `PersistableEnum` properties by their raw values, and the raw value itself, in
/// `where { }` as RealmSwift has them: `$0.priority >= .high` for an enum backed by `Int`,
/// `$0.status.rawValue == "open"`.
extension Query where T: PersistableEnum, T.RawValue: Comparable {
    /// Its raw value is less than `rhs`'s.
    public static func < (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.lessThan, rhs) }
    /// Its raw value is at most `rhs`'s.
    public static func <= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.lessThanOrEqual, rhs) }
    /// Its raw value is greater than `rhs`'s.
    public static func > (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.greaterThan, rhs) }
    /// Its raw value is at least `rhs`'s.
    public static func >= (lhs: Query, rhs: T) -> Query<Bool> { lhs.compare(.greaterThanOrEqual, rhs) }
}

extension Query where T: PersistableEnum {
    /// The enum's raw value, the form it is stored in (`$0.status.rawValue == "open"`).
    public var rawValue: Query<T.RawValue> {
        Query<T.RawValue>(path: path, node: nil, context: context, throughCollection: throughCollection)
    }

    /// The stored form of the value: for an enum, its raw value.
    public var persistableValue: Query<T.RawValue> { rawValue }
}

extension Query {
    /// An optional enum property's raw value is less than `rhs`'s (nil is never less).
    public static func < <E: PersistableEnum>(lhs: Query, rhs: E) -> Query<Bool> where T == E?, E.RawValue: Comparable {
        lhs.compare(.lessThan, rhs)
    }
    /// An optional enum property's raw value is at most `rhs`'s.
    public static func <= <E: PersistableEnum>(lhs: Query, rhs: E) -> Query<Bool>
    where T == E?, E.RawValue: Comparable {
        lhs.compare(.lessThanOrEqual, rhs)
    }
    /// An optional enum property's raw value is greater than `rhs`'s.
    public static func > <E: PersistableEnum>(lhs: Query, rhs: E) -> Query<Bool> where T == E?, E.RawValue: Comparable {
        lhs.compare(.greaterThan, rhs)
    }
    /// An optional enum property's raw value is at least `rhs`'s.
    public static func >= <E: PersistableEnum>(lhs: Query, rhs: E) -> Query<Bool>
    where T == E?, E.RawValue: Comparable {
        lhs.compare(.greaterThanOrEqual, rhs)
    }
}

extension Query where T: _OptionalPersistableEnum {
    /// The raw value of an optional enum, nil when the enum is nil (`$0.mood.rawValue == nil`).
    public var rawValue: Query<T._StrataRawValue?> {
        Query<T._StrataRawValue?>(path: path, node: nil, context: context, throughCollection: throughCollection)
    }
}
