import Foundation

/// Why a generated accessor refused to write a value.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum PropertyValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value's kind does not fit the property (for example `.string` for an `Int` property, or
    /// an `.int` too large for an `Int8`).
    case typeMismatch(property: String, expected: String, found: String)

    /// A sentence that names the property, both types and the fix.
    public var description: String {
        switch self {
        case .typeMismatch(let property, let expected, let found):
            "cannot store a \(found) value in '\(property)' of type \(expected); convert the value to \(expected) first"
        }
    }
}
