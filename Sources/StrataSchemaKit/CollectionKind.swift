/// The collection a property is, if any.
public enum CollectionKind: String, Sendable, Codable {
    case none, list, set, map
}
