/// A type written in a declaration, reduced to the shapes the schema cares about.
package indirect enum TypeExpression: Hashable, Sendable, CustomStringConvertible {
    /// `Name` or `Name<Arguments>` (module-qualified names keep only the last component).
    case named(String, [TypeExpression])
    /// `T?`, `T!` or `Optional<T>`.
    case optional(TypeExpression)
    /// Anything else (tuples, functions, arrays `[T]`, dictionaries, `some P`, ...), kept as text.
    case unsupported(String)

    package var description: String {
        switch self {
        case .named(let name, let args):
            args.isEmpty ? name : "\(name)<\(args.map(\.description).joined(separator: ", "))>"
        case .optional(let wrapped): "\(wrapped)?"
        case .unsupported(let text): text
        }
    }
}
