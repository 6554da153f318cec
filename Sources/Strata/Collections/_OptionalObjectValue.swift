/// Optional objects, the values of a map of objects. Not API.
protocol _OptionalObjectValue {
    /// The class of the objects.
    static var wrappedObjectType: ObjectBase.Type { get }
}

extension Optional: _OptionalObjectValue where Wrapped: ObjectBase {
    static var wrappedObjectType: ObjectBase.Type { Wrapped.self }
}
