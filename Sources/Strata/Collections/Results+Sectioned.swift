import Foundation

/// Sectioning of `Results` of objects: the objects sorted, then grouped by a key
/// (see `SectionedResults`).
extension Results where Element: Object {
    /// The objects sorted by the persisted property `keyPath` names and grouped by its value:
    /// one section per distinct value, in sort order.
    ///
    /// ```swift
    /// let byAge = realm.objects(Dog.self).sectioned(by: \.age, ascending: true)
    /// ```
    ///
    /// `keyPath` must name one persisted property of `Element` (the sort needs its name); a key
    /// path to a computed property is reported through `Realm.violationHandler`: section by it
    /// with `sectioned(by:sortDescriptors:)` and sort descriptors of the properties it reads.
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>, ascending: Bool = true
    ) -> SectionedResults<Key, Element> {
        let name = Element.strataPropertyNames([keyPath as PartialKeyPath<Element>])[0]
        guard !name.isEmpty else { return _sectionedUnsorted(by: { $0[keyPath: keyPath] }, owner: nil, kind: "") }
        return sectioned(by: keyPath, sortDescriptors: [SortDescriptor(keyPath: name, ascending: ascending)])
    }

    /// The objects sorted by `sortDescriptors` and grouped by the value of `keyPath`: one section
    /// per distinct value, in the order the values first appear. The first sort descriptor
    /// should order by the section key (or by what it is computed from), so that each key's
    /// objects are together.
    public func sectioned<Key: _Persistable & Hashable>(
        by keyPath: KeyPath<Element, Key>, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        sectioned(by: { $0[keyPath: keyPath] }, sortDescriptors: sortDescriptors)
    }

    /// The objects sorted by `sortDescriptors` and grouped by the key `block` gives each one:
    /// one section per distinct key, in the order the keys first appear.
    ///
    /// ```swift
    /// let byInitial = realm.objects(Dog.self).sectioned(
    ///     by: { String($0.name.prefix(1)) }, sortDescriptors: [SortDescriptor(keyPath: "name")])
    /// ```
    ///
    /// At least one sort descriptor is needed, as in RealmSwift; none is reported through
    /// `Realm.violationHandler` (the objects are then sectioned in their current order).
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, sortDescriptors: [SortDescriptor]
    ) -> SectionedResults<Key, Element> {
        _sectioned(by: block, sortDescriptors: sortDescriptors, owner: nil, kind: "")
    }

    /// Sectioned results over these results sorted by `sortDescriptors` (already sorted by them
    /// when `isSorted`); `owner` owns the collection (of `kind`) the results query, if any.
    func _sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, sortDescriptors: [SortDescriptor], owner: _CollectionOwner?,
        kind: String, isSorted: Bool = false
    ) -> SectionedResults<Key, Element> {
        if sortDescriptors.isEmpty {
            Realm.violation("There must be at least one SortDescriptor when using SectionedResults.", fallback: ())
        }
        let sorted = sortDescriptors.isEmpty || isSorted ? self : self.sorted(by: sortDescriptors)
        return sorted._sectionedUnsorted(by: block, owner: owner, kind: kind)
    }

    /// Sectioned results over these results in their order, after a misuse was reported.
    func _sectionedUnsorted<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, owner: _CollectionOwner?, kind: String
    ) -> SectionedResults<Key, Element> {
        let source = _SectionSource(self, owner: owner, kind: kind)
        return SectionedResults(core: _SectionedResultsCore(source: source, keyOf: block))
    }
}
