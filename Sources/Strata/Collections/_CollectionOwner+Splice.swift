internal import StrataCore

extension _CollectionOwner {
    /// Replaces elements `range` of the stored list with `added`: only `added` is converted for
    /// the store, which edits the range alone (a loop of single inserts or removals costs what
    /// the stored list's bytes cost, not a conversion of every element per edit). The decoded
    /// list cached for the realm's version before the edit is carried to the new version when
    /// it was there. The caller has checked `range` against the list's count and that the
    /// owner is writable.
    func splice<Element: RealmCollectionValue>(_ range: Range<Int>, with added: [Element]) {
        let realm = state.realm
        carryingCache(
            [Element].self,
            readsBack: { added.allSatisfy { Self.readsBackUnchanged($0._strataPropertyValue, in: realm) } }
        ) {
            realm.spliceList(state, index, range, added.map { $0._strataPropertyValue })
        } update: {
            $0.replaceSubrange(range, with: added)
        }
    }
}

extension Realm {
    /// Replaces elements `range` of list property `index` of a managed object with `values`
    /// (inside a write transaction), adding the unmanaged objects they link to.
    func spliceList(_ state: ManagedObjectState, _ index: Int, _ range: Range<Int>, _ values: [PropertyValue]) {
        addToCollection(state, index, values) { txn, table, key, column, added in
            try txn.spliceList(table, key: key, column: column, range, with: added)
        }
    }
}
