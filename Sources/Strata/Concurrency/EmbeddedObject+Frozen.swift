import Foundation

extension EmbeddedObject {
    /// Whether the object belongs to a frozen realm (always false for unmanaged objects).
    public var isFrozen: Bool { _strataManaged?.realm.isFrozen ?? false }

    /// A frozen copy of this managed embedded object: the values of its realm's current version,
    /// readable from any thread, as `Object.freeze()`. An unmanaged object cannot be frozen (the
    /// process stops with a message, through `Realm.violationHandler`).
    ///
    /// ```swift
    /// let frozenAddress = contact.address!.freeze()
    /// DispatchQueue.global().async { print(frozenAddress.city) }
    /// ```
    public func freeze() -> Self { frozenObject() as! Self }

    /// The live embedded object for this frozen one in the calling thread's realm of the same
    /// file, or nil if it is not in the version that realm shows (deleted with its parent, or
    /// replaced). The live realm is not refreshed, as for `Object.thaw()`. A live object returns
    /// itself; an unmanaged one cannot be thawed ("Unmanaged objects cannot be thawed.", through
    /// `Realm.violationHandler`, which may let it continue with nil).
    public func thaw() -> Self? {
        guard let state = _strataManaged else {
            return Realm.violation("Unmanaged objects cannot be thawed.", fallback: nil)
        }
        guard state.realm.isFrozen else { return self }
        let live = state.realm.thaw()
        guard !live.isFrozen else { return nil }
        guard live.currentRow(state.binding, state.key) != nil else { return nil }
        return live.object(state.binding, key: state.key) as? Self
    }
}

extension Realm {
    /// A frozen copy of `obj` (an `Object` or `EmbeddedObject` of this file), as `obj.freeze()`.
    public func freeze<T: ObjectBase>(_ obj: T) -> T {
        switch obj {
        case let object as Object: return object.freeze() as! T
        case let embedded as EmbeddedObject: return embedded.freeze() as! T
        default:
            return Realm.violation("Only Object and EmbeddedObject instances can be frozen.", fallback: obj)
        }
    }

    /// The live object of this realm's file for the frozen `obj`, as `obj.thaw()`; nil when it
    /// was deleted since.
    public func thaw<T: ObjectBase>(_ obj: T) -> T? {
        switch obj {
        case let object as Object: return object.thaw().map { $0 as! T }
        case let embedded as EmbeddedObject: return embedded.thaw().map { $0 as! T }
        default: return Realm.violation("Only Object and EmbeddedObject instances can be thawed.", fallback: nil)
        }
    }

    /// A frozen copy of `results`, as `results.freeze()`.
    public func freeze<Element>(_ results: Results<Element>) -> Results<Element> { results.freeze() }

    /// A frozen copy of `list`, as `list.freeze()`.
    public func freeze<Element>(_ list: List<Element>) -> List<Element> { list.freeze() }

    /// A frozen copy of `set`, as `set.freeze()`.
    public func freeze<Element>(_ set: MutableSet<Element>) -> MutableSet<Element> { set.freeze() }

    /// A frozen copy of `map`, as `map.freeze()`.
    public func freeze<Key, Value>(_ map: Map<Key, Value>) -> Map<Key, Value> { map.freeze() }

    /// A frozen copy of `objects`, as `objects.freeze()`.
    public func freeze<Element>(_ objects: LinkingObjects<Element>) -> LinkingObjects<Element> { objects.freeze() }
}
