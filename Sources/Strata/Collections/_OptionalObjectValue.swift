/// Optional objects, the values of a map of objects. Not API.
protocol _OptionalObjectValue {}
extension Optional: _OptionalObjectValue where Wrapped: ObjectBase {}
