import Foundation

/// Errors of the object store. Each names the table and column and says what to do.
///
/// ## Concurrency
/// A plain value; `Sendable`.
package enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case typeMismatch(table: String, column: String, expected: String, found: String)
    case nullNotAllowed(table: String, column: String)
    case duplicatePrimaryKey(table: String, column: String, value: String)
    case primaryKeyChanged(table: String, column: String)
    case noSuchTable(String)
    case objectMissing(table: String, key: Int64)
    case corruptRow(table: String, key: Int64)
    /// The stored data is damaged (a cluster, row, backlink entry or schema record fails its
    /// checks); the message says which.
    case corrupt(String)
    case valueTooLongForIndex(table: String, column: String, size: Int, limit: Int)
    /// `Int64.min` given as the key of an optional `Int` primary key, where it stands for nil.
    case reservedPrimaryKey(table: String, column: String)

    package var description: String {
        switch self {
        case .typeMismatch(let t, let c, let e, let f):
            "'\(t).\(c)' holds \(e) values; a \(f) value cannot be stored there. Convert the value first."
        case .nullNotAllowed(let t, let c):
            "'\(t).\(c)' is not optional; give it a value (or declare it optional)."
        case .duplicatePrimaryKey(let t, let c, let v):
            "Attempting to create an object of type '\(t)' with an existing primary key value '\(v)' (property '\(c)'). Use add(_:update: .modified) or create(_:value:update: .modified) to update the existing object."
        case .primaryKeyChanged(let t, let c):
            "Primary key can't be changed after an object is inserted ('\(t).\(c)'). Delete the object and create a new one instead."
        case .noSuchTable(let t):
            "the file has no table '\(t)'; add the type to the configuration's objectTypes"
        case .objectMissing(let t, let k):
            "object \(k) of '\(t)' has been deleted or does not exist in this version"
        case .corruptRow(let t, let k):
            "the stored row of object \(k) of '\(t)' is corrupt; run Database.verify() and restore from a backup"
        case .corrupt(let message):
            message
        case .reservedPrimaryKey(let t, let c):
            "\(Int64.min) cannot be the primary key of '\(t).\(c)': an optional Int primary key stores its nil key under that value. Use another key (or nil), or make the primary key non-optional."
        case .valueTooLongForIndex(let t, let c, let size, let limit):
            "the value of '\(t).\(c)' is \(size) bytes long, but an indexed or primary-key property holds at most \(limit) bytes in this file; shorten the value, or remove the index from the property"
        }
    }
}
