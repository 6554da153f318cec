import Foundation
internal import StrataCore
internal import StrataStorage

/// The type of a bare `nil` given as a primary key (`object(ofType:forPrimaryKey: nil)`): it
/// has no values, so only `nil` can be passed. Not API.
///
/// ## Concurrency
/// No values; `Sendable`.
public enum _NilPrimaryKey: Sendable {}
