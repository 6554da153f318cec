internal import Atomics
import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// The evaluated keys of frozen results, their class's binding and the frozen realm's
/// transaction; immutable.
final class FrozenKeys {
    let binding: TableBinding?
    let keys: [Int64]
    let txn: StoreTransaction
    /// The frozen realm (to report damage through); immutable.
    let realm: Realm

    init(binding: TableBinding?, keys: [Int64], txn: StoreTransaction, realm: Realm) {
        self.binding = binding
        self.keys = keys
        self.txn = txn
        self.realm = realm
    }

    /// The row of object `key` (nil if absent or unreadable, as `Realm.currentRow` reports).
    @inline(__always)
    func row(_ key: Int64) -> RowReader? {
        do {
            // `flatMap`, not `guard let`: with `guard let` the optimizer retained and released
            // both the binding and its table here, objects that every reading thread shares.
            return try binding.flatMap { try txn.row($0.table, key: key) }
        } catch {
            return realm.readFailed(
                error, "cannot read '\(binding?.className ?? "?")' object \(key): \(error)", fallback: nil)
        }
    }
}
