import Foundation

/// What an object observer (`Object.observe(keyPaths:on:_:)`) is told.
public enum ObjectChange<T> {
    /// The object could not be read (the file could not be read); no more notifications follow.
    case error(_ error: Swift.Error)
    /// One or more commits changed watched properties of the object; the changes are listed in
    /// the order of the class's properties.
    case change(_ object: T, _ properties: [PropertyChange])
    /// The object was deleted; no more notifications follow.
    case deleted
}

extension PropertyValue {
    /// The value as the property's Swift type holds it; nil for null, objects and collections.
    var strataAnyValue: Any? {
        switch self {
        case .null: nil
        case .bool(let v): v
        case .int(let v): Int(v)
        case .float(let v): v
        case .double(let v): v
        case .string(let v): v
        case .data(let v): v
        case .date(let v): v
        case .decimal128(let v): v
        case .objectId(let v): v
        case .uuid(let v): v
        case .object, .list, .set, .map, .linkingObjects: nil
        }
    }
}
