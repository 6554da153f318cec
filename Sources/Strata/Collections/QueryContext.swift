import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// Collects the arguments of one `where` query.
final class QueryContext {
    var arguments: [Any?] = []
    var error: String?
    /// Subquery variables handed out so far.
    var variableCount = 0

    func add(_ value: Any?) -> Int {
        arguments.append(value)
        return arguments.count - 1
    }
}
