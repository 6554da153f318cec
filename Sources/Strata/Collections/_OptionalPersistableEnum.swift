/// Optional `PersistableEnum` types, for `rawValue` in `where { }`. Not API.
public protocol _OptionalPersistableEnum {
    /// The raw value type of the wrapped enum.
    associatedtype _StrataRawValue
}

extension Optional: _OptionalPersistableEnum where Wrapped: PersistableEnum {
    public typealias _StrataRawValue = Wrapped.RawValue
}
