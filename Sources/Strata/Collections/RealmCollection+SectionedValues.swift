import Foundation

extension RealmCollection where Element: SortableType {
    /// The values sorted (smallest first when `ascending`) and grouped by the key `block` gives
    /// each one: one section per distinct key, in the order the keys first appear. For
    /// collections of values (`List<String>`, `MutableSet<Int>`, their `Results`), as in
    /// RealmSwift.
    ///
    /// ```swift
    /// let byInitial = person.nicknames.sectioned(by: { String($0.prefix(1)) })
    /// print(byInitial.allKeys, byInitial[0].map { $0 })
    /// ```
    ///
    /// The sections follow the collection as it changes. Sectioning an unmanaged collection is
    /// reported through `Realm.violationHandler`, as its queries are, and gives no sections.
    public func sectioned<Key: _Persistable & Hashable>(
        by block: @escaping (Element) -> Key, ascending: Bool = true
    ) -> SectionedResults<Key, Element> {
        let sorted = sorted(ascending: ascending)
        return SectionedResults(core: _SectionedResultsCore(source: _SectionSource(values: sorted), keyOf: block))
    }
}
