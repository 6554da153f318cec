import Foundation

extension QuickWrite {
    /// The live version of `list` (itself when live or unmanaged); nil, after reporting it,
    /// when its owner was deleted.
    static func live<V>(_ list: List<V>) -> List<V>? {
        guard list.isFrozen else { return list }
        return list.thaw() ?? refreshed(list.realm).flatMap { _ in list.thaw() } ?? missing("List")
    }

    /// The live version of `set`; nil, after reporting it, when its owner was deleted.
    static func live<V>(_ set: MutableSet<V>) -> MutableSet<V>? {
        guard set.isFrozen else { return set }
        return set.thaw() ?? refreshed(set.realm).flatMap { _ in set.thaw() } ?? missing("MutableSet")
    }

    /// The live version of `map`; nil, after reporting it, when its owner was deleted.
    static func live<K, V>(_ map: Map<K, V>) -> Map<K, V>? {
        guard map.isFrozen else { return map }
        return map.thaw() ?? refreshed(map.realm).flatMap { _ in map.thaw() } ?? missing("Map")
    }

    /// The live version of `results`.
    static func live<V>(_ results: Results<V>) -> Results<V>? {
        guard results.isFrozen else { return results }
        return results.thaw() ?? refreshed(results.realm).flatMap { _ in results.thaw() } ?? missing("Results")
    }

    /// Refreshes the live realm of frozen `realm` (an owner newer than its version thaws to nil
    /// until then); nil when it did not move.
    private static func refreshed(_ realm: Realm?) -> Realm? {
        guard let live = realm?.thaw(), !live.isFrozen, !live.isInWriteTransaction, live.refresh() else { return nil }
        return live
    }

    private static func missing<T>(_ kind: String) -> T? {
        report(
            Realm.Error(
                .invalidatedObject,
                "A quick write to a \(kind) could not run: the object that owns it was deleted."))
        return nil
    }
}
