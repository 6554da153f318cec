/// Whether a column holds one value or a collection.
///
/// ## Concurrency
/// A plain value; `Sendable`.
package enum CollectionKind: UInt8, Sendable, Hashable {
    case none = 0, list, set, map
}
