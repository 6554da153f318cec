import Foundation

/// One property of an observed object that a commit changed (`ObjectChange.change`).
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// Its value before the change, as the property's Swift type would hold it (`Int`,
    /// `String`, `Date`, ... or nil for a null), read from the previous version. Nil for links
    /// and collections, and for a change reached through a linked object (`"toys.brand"`).
    public let oldValue: Any?
    /// Its value after the change, in the same form; nil for links and collections (read them
    /// from the object) and for a change reached through a linked object.
    public let newValue: Any?
}

/// What an object observer (`Object.observe(keyPaths:on:_:)`) is told.
public enum ObjectChange<T: ObjectBase> {
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
