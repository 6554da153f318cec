import Foundation

/// `_AnyRealmCollectionBase` forwarding to a `C`. Not API.
final class _AnyRealmCollectionBox<C: RealmCollection>: _AnyRealmCollectionBase<C.Element> {
    let base: C

    init(_ base: C) { self.base = base }

    override var count: Int { base.count }
    override var description: String { base.description }
    override var realm: Realm? { base.realm }
    override var isInvalidated: Bool { base.isInvalidated }
    override var isFrozen: Bool { base.isFrozen }
    override var results: Results<C.Element> {
        if let results = base as? Results<C.Element> { return results }
        if let queryable = base as? any _RealmCollectionQueries {
            return Self.results(of: queryable)
        }
        return base.filter("TRUEPREDICATE")
    }
    private static func results<Q: _RealmCollectionQueries>(of q: Q) -> Results<C.Element> {
        q._strataResults as! Results<C.Element>
    }
    override func element(at position: Int) -> C.Element { base[position] }
    override func freeze() -> _AnyRealmCollectionBase<C.Element> { _AnyRealmCollectionBox(base.freeze()) }
    override func thaw() -> _AnyRealmCollectionBase<C.Element>? { base.thaw().map { _AnyRealmCollectionBox($0) } }
    override func index(of object: C.Element) -> Int? { base.index(of: object) }
    override func objects(at indexes: IndexSet) -> [C.Element] { base.objects(at: indexes) }
    override func filter(_ predicateFormat: String, _ args: [Any]) -> Results<C.Element> {
        results.filter(predicateFormat, arguments: args)
    }
    override func `where`(_ isIncluded: (Query<C.Element>) -> Query<Bool>) -> Results<C.Element> {
        base.where(isIncluded)
    }
    override func sorted(by descriptors: [SortDescriptor]) -> Results<C.Element> { base.sorted(by: descriptors) }
    override func distinct(by keyPaths: [String]) -> Results<C.Element> { base.distinct(by: keyPaths) }
    override func value(forKeyPath keyPath: String) -> Any? { base.value(forKeyPath: keyPath) }
    override func setValue(_ value: Any?, forKey key: String) { base.setValue(value, forKey: key) }
    override func isEqual(to other: _AnyRealmCollectionBase<C.Element>) -> Bool {
        guard let other = other as? _AnyRealmCollectionBox<C> else { return false }
        return base == other.base
    }
    override func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<C.Element>>) -> Void
    ) -> NotificationToken {
        guard let observable = base as? _ObservableRealmCollection else {
            return Realm.violation(
                "\(type(of: base)) does not support change notifications; observe the collection it was made from.",
                fallback: NotificationToken())
        }
        return observable._strataObserve(keyPaths: keyPaths, place: place) { change in
            func wrap(_ c: Any) -> AnyRealmCollection<C.Element> { AnyRealmCollection(c as! C) }
            switch change {
            case .initial(let c): block(.initial(wrap(c)))
            case .update(let c, let d, let i, let m):
                block(.update(wrap(c), deletions: d, insertions: i, modifications: m))
            case .error(let e): block(.error(e))
            }
        }
    }
}
