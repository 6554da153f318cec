import Foundation
internal import StrataCore
internal import StrataStorage

/// Type-erased access to `Results` for references.
protocol _AnyResults {
    var elementClassName: String { get }
    var coreQuery: StoreQuery { get }
    /// For results of values, their collection and operations; nil for results of objects.
    var valueSource: _ValueResults? { get }
}
