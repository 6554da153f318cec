import Foundation

extension _SectionSource where Element: RealmCollectionValue {
    /// The values of `results`, results of a managed list's or set's values (already sorted).
    /// The sections are invalidated when the object owning the collection is deleted.
    init(values results: Results<Element>) {
        self.realm = results.realm
        self.count = { results.count }
        self.element = { results[$0] }
        self.isInvalidated = { results.values.map { !$0.owner.isValid } ?? false }
        self.freeze = {
            let frozen = results.freeze()
            guard frozen.isFrozen else { return nil }
            return _SectionSource(values: frozen)
        }
        self.thaw = { results.thaw().map { _SectionSource(values: $0) } }
        self.observe = { _, place, block in
            results.observe(keyPaths: nil, place: place) { change in
                switch change {
                case .initial(let delivered): block(_SectionSource(values: delivered), nil)
                case .update(let delivered, _, _, let modifications):
                    block(_SectionSource(values: delivered), modifications)
                case .error: break
                }
            }
        }
    }
}
