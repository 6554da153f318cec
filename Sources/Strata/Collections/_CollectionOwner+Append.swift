internal import StrataCore

extension _CollectionOwner {
    /// Appends `added` to the stored list: only the new elements are converted for the store,
    /// the stored elements are kept as they are (a loop of single appends costs what the stored
    /// list's bytes cost, not a conversion of every element per append). The decoded list cached
    /// for the realm's version before the append is carried to the new version when it was
    /// there. Nothing happens (after reporting the violation) outside a write transaction or
    /// when the owner was deleted.
    func append<Element: RealmCollectionValue>(_ added: [Element]) {
        guard checkWritable("List") else { return }
        let realm = state.realm
        carryingCache(
            [Element].self,
            readsBack: { added.allSatisfy { Self.readsBackUnchanged($0._strataPropertyValue, in: realm) } }
        ) {
            realm.appendToList(state, index, added.map { $0._strataPropertyValue })
        } update: {
            $0 += added
        }
    }

    /// Adds to the stored set each of `candidates` that is not a member yet: only the candidates
    /// are converted for the store. Nothing happens (after reporting the violation) outside a
    /// write transaction or when the owner was deleted.
    func insert<Element: RealmCollectionValue>(_ candidates: [Element]) {
        guard checkWritable("MutableSet") else { return }
        state.collectionCaches[index] = nil
        state.realm.insertIntoSet(state, index, candidates.map { $0._strataPropertyValue })
    }
}

extension Realm {
    /// Appends `values` to list property `index` of a managed object (inside a write
    /// transaction), adding the unmanaged objects they link to.
    func appendToList(_ state: ManagedObjectState, _ index: Int, _ values: [PropertyValue]) {
        addToCollection(state, index, values) { txn, table, key, column, added in
            try txn.appendToList(table, key: key, column: column, added)
        }
    }

    /// Adds to set property `index` of a managed object (inside a write transaction) those of
    /// `values` that are not members yet, adding the unmanaged objects they link to.
    func insertIntoSet(_ state: ManagedObjectState, _ index: Int, _ values: [PropertyValue]) {
        addToCollection(state, index, values) { txn, table, key, column, added in
            try txn.insertIntoSet(table, key: key, column: column, added)
        }
    }

    /// Converts `values` for collection property `index` and hands them to `store`; reports a
    /// failure as a violation of the write.
    func addToCollection(
        _ state: ManagedObjectState, _ index: Int, _ values: [PropertyValue],
        _ store: (StoreTransaction, StoreTable, Int64, Int, [StoreValue]) throws -> Void
    ) {
        guard let txn = modifiableTransaction() else { return }
        let binding = state.binding
        do {
            guard
                case .list(let added) = try coreValue(
                    .list(values), property: binding.schema.properties[index], update: .error)
            else { return }
            try store(txn, binding.table, state.key, binding.columns[index], added)
            stamp &+= 1
        } catch let e as Realm.Error {
            fail(e)
        } catch {
            fail(translate(error, className: binding.className))
        }
    }
}
