import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// Options of string comparisons in `where { }` (RealmSwift's `StringOptions`):
/// `$0.name.contains("rex", options: [.caseInsensitive])`.
///
/// ## Concurrency
/// A value; `Sendable`.
public struct StringOptions: OptionSet, Sendable, Hashable {
    public var rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }

    /// Compare ignoring case (`"Rex"` matches `"rEX"`), as `[c]` in a query string.
    public static let caseInsensitive = StringOptions(rawValue: 1 << 0)
    /// Compare ignoring diacritics (`"é"` matches `"e"`), as `[d]` in a query string.
    public static let diacriticInsensitive = StringOptions(rawValue: 1 << 1)

    var query: QueryStringOptions {
        var o: QueryStringOptions = []
        if contains(.caseInsensitive) { o.insert(.caseInsensitive) }
        if contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
        return o
    }
}
