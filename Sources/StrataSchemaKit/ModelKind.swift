/// Which base class a model derives from.
package enum ModelKind: String, Sendable, Codable {
    case object, embedded, asymmetric

    var baseClassName: String {
        switch self {
        case .object: "Object"
        case .embedded: "EmbeddedObject"
        case .asymmetric: "AsymmetricObject"
        }
    }
}
