import Foundation
internal import StrataCore
internal import StrataStorage

/// Where a managed object lives: its realm, its class's table binding and its object key. Not
/// API: an opaque handle, public only because the `_Persistable` requirements that `@Persisted`
/// accessors call (and that the compiler inlines into the app) take it; nothing of it is public.
///
/// ## Concurrency
/// Not `Sendable`: confined with its realm. The state of a frozen object is immutable once
/// made, so several threads may read the object at once.
public final class ManagedObjectState {
    /// The realm that manages the object.
    @usableFromInline let realm: Realm
    let binding: TableBinding
    /// The object's key in its table.
    @usableFromInline let key: Int64
    /// The row read at `cachedStamp` (live objects only). Confined with the realm: no run-time
    /// exclusivity check (see `ObjectBase._strataManaged`).
    @exclusivity(unchecked) var cachedRow: RowReader?
    @exclusivity(unchecked) var cachedStamp: UInt64 = .max
    /// A frozen object's row, found once when the state is made (its version never changes);
    /// nil when the object is live or absent from that version. Kept whole in a `let`, so that
    /// reads borrow it rather than finding the row again per read.
    let frozenRow: RowReader?
    /// The realm's stamp when this state was made. The object existed then (it came from a query,
    /// a link or a lookup of that version), so if its row is missing while the realm still shows
    /// that stamp, the file is damaged; the object was not deleted.
    let bornStamp: UInt64
    /// The realm's `invalidations` when this state was made: after `invalidate()` the object is
    /// invalidated, as in RealmSwift.
    let bornInvalidations: UInt32
    /// Decoded values of collection properties (`_CollectionCache`), by property index; each
    /// carries the realm stamp it was read at (see ManagedCollection.swift).
    /// (Made with `init()`: an empty `[:]` literal called the runtime's dictionary-literal
    /// initializer for every object made.)
    var collectionCaches = [Int: AnyObject]()

    /// The state of object `key`; `frozenRow` is its row when the realm is frozen and the
    /// caller has found it already (nil: find it here).
    init(realm: Realm, binding: TableBinding, key: Int64, frozenRow: RowReader? = nil) {
        // A frozen object's row never changes: find it once, before any other thread can see
        // the object, so that its reads need no B-tree lookup and write no shared memory.
        if realm.realmState.isFrozen, let frozenRow {
            self.frozenRow = frozenRow
        } else {
            self.frozenRow = realm.realmState.isFrozen ? realm.currentRow(binding, key) : nil
        }
        self.realm = realm
        self.binding = binding
        self.key = key
        self.bornStamp = realm.realmState.stamp
        self.bornInvalidations = realm.realmState.invalidations
    }

    /// The state of object `key` whose row in the realm's current version the caller has just
    /// read (`row`): a frozen object keeps it for good, a live one caches it at the realm's
    /// current stamp, so that the object's first property read finds it without a lookup and
    /// without the copy (a retain and a release) of setting the cache afterwards.
    init(realm: Realm, binding: TableBinding, key: Int64, currentRow row: RowReader) {
        let state = realm.realmState
        if state.isFrozen {
            frozenRow = row
        } else {
            frozenRow = nil
            cachedRow = row
            cachedStamp = state.stamp
        }
        self.realm = realm
        self.binding = binding
        self.key = key
        self.bornStamp = state.stamp
        self.bornInvalidations = state.invalidations
    }

    /// The object's row in the realm's current version; traps (through `Realm.violation`) when
    /// the object was deleted.
    @inline(__always)
    func row() -> RowReader? {
        guard realm.realmState.isOnOwner || realm.checkThread() else { return nil }
        return rowOnOwner()
    }

    /// `row()` for a caller that has checked the thread already (a second check read the
    /// thread's id again: about 25 instructions a property read).
    @inline(__always)
    func rowOnOwner() -> RowReader? {
        // Frozen objects may be read from several threads at once: the row found in `init`.
        if realm.realmState.isFrozen { return frozenRow }
        if cachedStamp == realm.stamp, let r = cachedRow { return r }
        // `invalidate()` changes the stamp, so this check stays off the cached path.
        guard bornInvalidations == realm.realmState.invalidations else { return nil }
        let r = realm.currentRow(binding, key)
        cachedRow = r
        cachedStamp = realm.stamp
        return r
    }
}
