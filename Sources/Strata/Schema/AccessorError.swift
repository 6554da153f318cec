/// Why `ObjectAccessors.setValue` failed.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum AccessorError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownProperty(className: String, property: String)
    case readOnly(className: String, property: String)
    case invalidValue(PropertyValueError)

    /// A sentence that names the property and what to do.
    public var description: String {
        switch self {
        case .unknownProperty(let className, let property):
            "\(className) has no persisted property '\(property)'; check the name against \(className).strataObjectSchema"
        case .readOnly(let className, let property):
            "'\(className).\(property)' is a LinkingObjects property: it is computed from the links pointing at the object; write the origin property instead"
        case .invalidValue(let error):
            error.description
        }
    }
}
