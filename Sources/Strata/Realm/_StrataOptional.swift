import Foundation
internal import StrataCore
internal import StrataStorage

/// Lets `Any` values holding `Optional.none` be recognised as nil.
protocol _StrataOptional {
    var strataIsNone: Bool { get }
}
