import StrataQuery

/// One side of a comparison, bound to the schema and the arguments.
enum BoundOperand {
    /// A constant or an argument; `argument` is the argument's index when it came from one.
    case constant(StoreValue, source: String, argument: Int?)
    /// The elements of `{...}` (each with its source).
    case list([(value: StoreValue, source: String)])
    case path(QueryPath)
}
