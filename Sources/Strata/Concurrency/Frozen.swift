import Foundation
internal import StrataCore
internal import StrataStorage

// Frozen realms, objects and results: immutable snapshots of one version, readable from any
// thread; `thaw()` returns the live counterpart on the calling thread.

extension RealmFile {
    func pin(_ version: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        pinned.pin(version)
    }

    func unpin(_ version: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        pinned.unpin(version)
    }

    /// Versions pinned by realms of this process, counting `extra` as pinned too.
    func activeVersions(adding extra: UInt64?) -> Int {
        lock.lock()
        defer { lock.unlock() }
        var n = pinned.versionCount
        if let extra, pinned.count(of: extra) == 0 { n += 1 }
        return n
    }
}

extension Realm {
    /// A frozen copy of this realm: the version it shows now, immutable, readable from any thread
    /// (also concurrently). Writes to it fail with an error. Frozen realms pin their version: its
    /// pages are not reused until every frozen realm, object and result of it is released.
    public func freeze() -> Realm {
        if isFrozen { return self }
        guard checkThread() else { return self }
        guard !isInWriteTransaction else {
            return Realm.violation("Cannot freeze a Realm inside a write transaction; commit it first.", fallback: self)
        }
        let snapshot = currentSnapshot()
        let limit = configuration.maximumNumberOfActiveVersions
        if limit > 0, file.activeVersions(adding: snapshot.read.version.rawValue) > Int(limit) {
            return Realm.violation(
                "Number of active versions (\(file.activeVersions(adding: snapshot.read.version.rawValue))) in the Realm '\(file.path)' exceeded the limit of \(limit) (maximumNumberOfActiveVersions). Release frozen objects and results you no longer need.",
                fallback: self)
        }
        let frozen = RealmState(configuration: configuration, file: file, confinement: .frozen)
        // Threads read the frozen realm at once: its transaction resolves every tree now and is
        // immutable from here on, so reads share it without a lock.
        let txn: StoreTransaction
        do {
            txn = try StoreTransaction(sharedRead: snapshot.read)
        } catch {
            return Realm.violation("Cannot freeze '\(file.path)': \(error)", fallback: self)
        }
        file.prepare(txn)
        frozen.readTxn = txn
        frozen.snapshot = snapshot
        var bindings = bindingCache
        for b in file.allBindings() { bindings[ObjectIdentifier(b.type)] = b }
        frozen.bindingCache = bindings
        return Realm(realmState: frozen)
    }

    /// The live realm of this file on the calling thread (itself if not frozen).
    public func thaw() -> Realm {
        guard isFrozen else { return self }
        var config = configuration
        config.objectTypes = configuration.objectTypes
        do {
            return try Realm(configuration: config)
        } catch {
            return Realm.violation("Cannot thaw '\(file.path)': \(error)", fallback: self)
        }
    }

    /// The pinned snapshot of the current version (creating the read transaction if needed).
    func currentSnapshot() -> PinnedSnapshot {
        _ = current()
        return realmState.snapshot!
    }
}

extension ObjectBase {
    /// What `freeze()` returns for an `Object` or `EmbeddedObject`: the object read from a frozen
    /// realm of its realm's current version (itself when frozen already; itself after reporting
    /// an unmanaged or deleted object).
    func frozenObject() -> ObjectBase {
        guard let state = _strataManaged else {
            return Realm.violation(
                "Unmanaged objects cannot be frozen. Add the object to a realm first.", fallback: self)
        }
        if state.realm.isFrozen { return self }
        guard state.row() != nil else {
            return Realm.violation("Object has been deleted or invalidated.", fallback: self)
        }
        let frozen = state.realm.freeze()
        guard frozen.isFrozen else { return self }
        return frozen.object(state.binding, key: state.key)
    }
}

extension Object {
    /// Whether the object belongs to a frozen realm (always false for unmanaged objects).
    public var isFrozen: Bool { _strataManaged?.realm.isFrozen ?? false }

    /// A frozen copy of this managed object: the values of its realm's current version, readable
    /// from any thread. An unmanaged object cannot be frozen (the process stops with a message).
    public func freeze() -> Self { frozenObject() as! Self }

    /// The live object for this frozen object in the calling thread's realm of the same file, or
    /// nil if it is not in the version that realm shows. The live realm is not refreshed: as in
    /// RealmSwift, the object reads the realm's version until the realm refreshes. A live object
    /// returns itself; an unmanaged one is reported to `Realm.violationHandler` ("Unmanaged
    /// objects cannot be thawed.") and returned as it is.
    public func thaw() -> Self? {
        guard let state = _strataManaged else {
            return Realm.violation("Unmanaged objects cannot be thawed.", fallback: self)
        }
        guard state.realm.isFrozen else { return self }
        let live = state.realm.thaw()
        guard !live.isFrozen else { return nil }
        guard let row = live.currentRow(state.binding, state.key) else { return nil }
        let o = live.object(state.binding, key: state.key) as! Self
        o._strataManaged?.cachedRow = row
        o._strataManaged?.cachedStamp = live.stamp
        return o
    }
}

extension Results {
    /// Whether the results belong to a frozen realm.
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// Frozen results: the objects matching the query in the realm's current version, readable
    /// from any thread.
    public func freeze() -> Results<Element> {
        guard let realm, !realm.isFrozen else { return self }
        if let values {
            return values.owner.frozenOwner(values.kindName).map { Results(values: values.moved(to: $0)) } ?? self
        }
        let frozen = realm.freeze()
        guard frozen.isFrozen else { return self }
        return with(realm: frozen, query: query)
    }

    /// The live results of the same query in the calling thread's realm.
    public func thaw() -> Results<Element>? {
        guard let realm else { return nil }
        guard realm.isFrozen else { return self }
        if let values { return values.owner.liveOwner().map { Results(values: values.moved(to: $0)) } }
        let live = realm.thaw()
        guard !live.isFrozen else { return nil }
        live.refresh()
        return with(realm: live, query: query)
    }
}

// MARK: Collections

extension _CollectionOwner {
    /// The same property of the owning object's frozen copy (itself if already frozen), or nil
    /// when the owner was deleted.
    func frozenOwner(_ kind: String) -> _CollectionOwner? {
        if realm.isFrozen { return self }
        guard realm.checkThread() else { return nil }
        guard state.row() != nil else {
            return realm.ownerMissing(state, Self.invalidatedMessage(kind), fallback: nil)
        }
        let frozen = realm.freeze()
        guard frozen.isFrozen, let s = frozen.object(state.binding, key: state.key)._strataManaged else { return nil }
        return _CollectionOwner(state: s, index: index)
    }

    /// The same property of the owning object in the calling thread's live realm, or nil when
    /// the owner was deleted since.
    func liveOwner() -> _CollectionOwner? {
        guard realm.isFrozen else { return self }
        let live = realm.thaw()
        guard !live.isFrozen else { return nil }
        live.refresh()
        guard live.currentRow(state.binding, state.key) != nil,
            let s = live.object(state.binding, key: state.key)._strataManaged
        else { return nil }
        return _CollectionOwner(state: s, index: index)
    }
}

extension List {
    /// Whether the list belongs to a frozen object.
    public var isFrozen: Bool { owner?.realm.isFrozen ?? false }

    /// A frozen copy of this managed list: its elements in the realm's current version, readable
    /// from any thread. An unmanaged list cannot be frozen (the process stops with a message).
    public func freeze() -> List<Element> {
        guard let owner else {
            return Realm.violation(
                "Unmanaged lists cannot be frozen. Add the owning object to a realm first.", fallback: self)
        }
        return owner.frozenOwner("List").map { List(owner: $0) } ?? self
    }

    /// The live list of the same object in the calling thread's realm, or nil if the object was
    /// deleted since. A live list returns itself.
    public func thaw() -> List<Element>? {
        guard let owner else { return self }
        return owner.liveOwner().map { List(owner: $0) }
    }
}

extension MutableSet {
    /// Whether the set belongs to a frozen object.
    public var isFrozen: Bool { owner?.realm.isFrozen ?? false }

    /// A frozen copy of this managed set, readable from any thread. An unmanaged set cannot be
    /// frozen (the process stops with a message).
    public func freeze() -> MutableSet<Element> {
        guard let owner else {
            return Realm.violation(
                "Unmanaged sets cannot be frozen. Add the owning object to a realm first.", fallback: self)
        }
        return owner.frozenOwner("MutableSet").map { MutableSet(owner: $0) } ?? self
    }

    /// The live set of the same object in the calling thread's realm, or nil if the object was
    /// deleted since. A live set returns itself.
    public func thaw() -> MutableSet<Element>? {
        guard let owner else { return self }
        return owner.liveOwner().map { MutableSet(owner: $0) }
    }
}

extension Map {
    /// Whether the map belongs to a frozen object.
    public var isFrozen: Bool { owner?.realm.isFrozen ?? false }

    /// A frozen copy of this managed map, readable from any thread. An unmanaged map cannot be
    /// frozen (the process stops with a message).
    public func freeze() -> Map<Key, Value> {
        guard let owner else {
            return Realm.violation(
                "Unmanaged maps cannot be frozen. Add the owning object to a realm first.", fallback: self)
        }
        return owner.frozenOwner("Map").map { Map(owner: $0) } ?? self
    }

    /// The live map of the same object in the calling thread's realm, or nil if the object was
    /// deleted since. A live map returns itself.
    public func thaw() -> Map<Key, Value>? {
        guard let owner else { return self }
        return owner.liveOwner().map { Map(owner: $0) }
    }
}

extension LinkingObjects {
    /// Whether these backlinks were read from a frozen object.
    public var isFrozen: Bool { owner?.realm.isFrozen ?? false }

    /// The objects linking to the frozen copy of the owning object, readable from any thread.
    /// Backlinks of an unmanaged object cannot be frozen (the process stops with a message).
    public func freeze() -> LinkingObjects<Element> {
        guard let owner else {
            return Realm.violation(
                "Unmanaged LinkingObjects cannot be frozen. Add the owning object to a realm first.", fallback: self)
        }
        guard let frozen = owner.frozenOwner("LinkingObjects") else { return self }
        return Self._strataManagedGet(frozen.state, frozen.index)
    }

    /// The backlinks of the same object in the calling thread's live realm, or nil if the object
    /// was deleted since. Live backlinks return themselves.
    public func thaw() -> LinkingObjects<Element>? {
        guard let owner else { return self }
        return owner.liveOwner().map { Self._strataManagedGet($0.state, $0.index) }
    }
}
