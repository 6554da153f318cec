import Foundation

/// Sectioning with a key block and sort descriptors, the form every RealmSwift collection has:
/// for `Results` of projections (`realm.objects(PersonProjection.self)`), whose other sectioning
/// forms RealmSwift reserves for objects, and for `Results` of objects.
extension Results where Element: ProjectionObservable {
    /// The projections sorted by `sortDescriptors` and grouped by the key `keyBlock` gives each
    /// one: one section per distinct key, in the order the keys first appear. The sort
    /// descriptors name properties of the projected class (as the projections' queries do); the
    /// first should order by what the key is computed from, so that each key's projections are
    /// together.
    ///
    /// ```swift
    /// let byInitial = realm.objects(PersonProjection.self).sectioned(
    ///     sortDescriptors: [SortDescriptor(keyPath: "lastName")]) { String($0.surname.prefix(1)) }
    /// print(byInitial.allKeys, byInitial[0].map(\.surname))
    /// ```
    ///
    /// The sections are live, can be frozen and thawed, and observed, as those of objects are.
    /// At least one sort descriptor is needed, as in RealmSwift; none is reported through
    /// `Realm.violationHandler` (the projections are then sectioned in their current order).
    public func sectioned<Key: _Persistable & Hashable>(
        sortDescriptors: [SortDescriptor], _ keyBlock: @escaping (Element) -> Key
    ) -> SectionedResults<Key, Element> {
        _sortedSections(sortDescriptors: sortDescriptors, keyBlock)
    }
}

extension Results {
    /// These results sorted by `sortDescriptors` and grouped by `keyBlock`'s key, for objects or
    /// projections alike (the projection form above, `ObservedSectionedResults`). No sort
    /// descriptor is reported through `Realm.violationHandler`, and the results are then grouped
    /// in their current order.
    func _sortedSections<Key: _Persistable & Hashable>(
        sortDescriptors: [SortDescriptor], _ keyBlock: @escaping (Element) -> Key
    ) -> SectionedResults<Key, Element> {
        if sortDescriptors.isEmpty {
            Realm.violation("There must be at least one SortDescriptor when using SectionedResults.", fallback: ())
        }
        let sorted = sortDescriptors.isEmpty ? self : self.sorted(by: sortDescriptors)
        return SectionedResults(core: _SectionedResultsCore(source: _SectionSource(sorted), keyOf: keyBlock))
    }
}

extension Results where Element: Object {
    /// The objects sorted by `sortDescriptors` and grouped by the key `keyBlock` gives each one:
    /// `sectioned(by: keyBlock, sortDescriptors: sortDescriptors)` in the argument order of
    /// RealmSwift's `RealmCollection` requirement.
    ///
    /// ```swift
    /// let byInitial = realm.objects(Dog.self).sectioned(
    ///     sortDescriptors: [SortDescriptor(keyPath: "name")]) { String($0.name.prefix(1)) }
    /// ```
    public func sectioned<Key: _Persistable & Hashable>(
        sortDescriptors: [SortDescriptor], _ keyBlock: @escaping (Element) -> Key
    ) -> SectionedResults<Key, Element> {
        sectioned(by: keyBlock, sortDescriptors: sortDescriptors)
    }
}
