import Foundation

/// Sectioning of the objects of a managed set: sorted by the store, then grouped by a key
/// (see `SectionedResults`). The sections follow the set as it changes; they are
/// invalidated when the object owning it is deleted. An unmanaged set cannot be sectioned: the call is reported through `Realm.violationHandler`
/// and the sections are empty, as its queries are.
extension MutableSet where Element: Object {
    /// The objects sorted by the persisted property `keyPath` names and grouped by its value:
    /// one section per distinct value, in sort order.
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>, ascending: Bool = true
    ) -> SectionedResults<Key, Element> {
        let name = Element.strataPropertyNames([keyPath as PartialKeyPath<Element>])[0]
        guard !name.isEmpty else {
            return sorted(by: [])._sectionedUnsorted(by: { $0[keyPath: keyPath] }, owner: owner, kind: "Set")
        }
        return sectioned(by: keyPath, sortDescriptors: [SortDescriptor(keyPath: name, ascending: ascending)])
    }

    /// The objects sorted by `sortDescriptors` and grouped by the value of `keyPath`, in the
    /// order the values first appear.
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        sectioned(by: { $0[keyPath: keyPath] }, sortDescriptors: sortDescriptors)
    }

    /// The objects sorted by `sortDescriptors` and grouped by the key `block` gives each one, in
    /// the order the keys first appear.
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        sorted(by: sortDescriptors)._sectioned(
            by: block, sortDescriptors: sortDescriptors, owner: owner, kind: "Set", isSorted: true)
    }
}
