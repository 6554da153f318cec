import Foundation
import StrataQuery

/// The kinds of values that can be compared with each other.
enum QueryValueClass: Equatable {
    case numeric, bool, string, data, date, objectId, uuid, decimal, link, collection

    init(_ type: ColumnType) {
        switch type {
        case .int, .float, .double: self = .numeric
        case .bool: self = .bool
        case .string: self = .string
        case .data: self = .data
        case .timestamp: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal
        // AnyRealmValue has no single class; QueryPath.valueClass answers nil for it and never
        // asks here.
        case .link, .linkingObjects, .mixed: self = .link
        }
    }

    /// The class of a non-null value; nil for null.
    init?(_ value: StoreValue) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .int, .float, .double: self = .numeric
        case .string: self = .string
        case .data: self = .data
        case .timestamp: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal
        case .link, .typedLink: self = .link
        case .list, .map: self = .collection
        }
    }

    /// Whether `<`, `<=`, `>`, `>=` and `BETWEEN` are defined.
    var isOrdered: Bool {
        switch self {
        case .numeric, .string, .data, .date, .objectId, .uuid, .decimal: return true
        case .bool, .link, .collection: return false
        }
    }
}
