/// The collection a property is, if any.
package enum CollectionKind: String, Sendable, Codable {
    case none, list, set, map
}
