import StrataQuery

/// The kinds of value `@type` tells apart.
enum QueryValueKind: Hashable {
    case null, int, bool, string, data, date, float, double, decimal, objectId, uuid, link, list, dictionary

    init(_ value: StoreValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .bool
        case .int: self = .int
        case .float: self = .float
        case .double: self = .double
        case .string: self = .string
        case .data: self = .data
        case .timestamp: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal
        case .link, .typedLink: self = .link
        case .list: self = .list
        case .map: self = .dictionary
        }
    }

    /// The kinds each type name stands for; keys are lower case.
    static let names: [String: Set<QueryValueKind>] = [
        "null": [.null],
        "int": [.int], "integer": [.int], "long": [.int], "short": [.int], "byte": [.int], "char": [.int],
        "int16": [.int], "int32": [.int], "int64": [.int],
        "bool": [.bool], "boolean": [.bool],
        "string": [.string],
        "binary": [.data], "data": [.data], "bindata": [.data], "bytearray": [.data], "byte[]": [.data],
        "date": [.date], "timestamp": [.date], "datetimeoffset": [.date],
        "float": [.float], "double": [.double],
        "decimal": [.decimal], "decimal128": [.decimal],
        "objectid": [.objectId],
        "uuid": [.uuid], "guid": [.uuid],
        "link": [.link], "object": [.link], "objectlink": [.link],
        "numeric": [.int, .float, .double, .decimal],
        "mixed": [.null, .int, .bool, .string, .data, .date, .float, .double, .decimal, .objectId, .uuid, .link],
        "list": [.list], "array": [.list], "dictionary": [.dictionary],
        "collection": [.list, .dictionary],
    ]
}
