internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// A sort key: a property (or a path through to-one links) and a direction.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public struct SortDescriptor: Sendable, Hashable {
    /// The property, e.g. `"name"` or `"owner.name"`.
    public var keyPath: String
    /// Smallest first when true.
    public var ascending: Bool

    /// A sort by `keyPath`.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
