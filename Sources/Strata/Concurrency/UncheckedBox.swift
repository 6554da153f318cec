import Dispatch
import Foundation
internal import StrataCore
internal import StrataStorage

/// Carries a value to another thread without the compiler's `Sendable` check; used where the
/// value is only touched again in its own context (the realm's scheduler).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
