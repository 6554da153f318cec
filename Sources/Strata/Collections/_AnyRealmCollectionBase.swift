import Foundation

/// The operations of a wrapped collection; `_AnyRealmCollectionBox` forwards them. Not API.
class _AnyRealmCollectionBase<Element: RealmCollectionValue> {
    var count: Int { fatalError("abstract") }
    var description: String { fatalError("abstract") }
    var realm: Realm? { fatalError("abstract") }
    var isInvalidated: Bool { fatalError("abstract") }
    var isFrozen: Bool { fatalError("abstract") }
    /// The elements as `Results` (for the aggregates by property name).
    var results: Results<Element> { fatalError("abstract") }
    func element(at position: Int) -> Element { fatalError("abstract") }
    func freeze() -> _AnyRealmCollectionBase<Element> { fatalError("abstract") }
    func thaw() -> _AnyRealmCollectionBase<Element>? { fatalError("abstract") }
    func index(of object: Element) -> Int? { fatalError("abstract") }
    func objects(at indexes: IndexSet) -> [Element] { fatalError("abstract") }
    func filter(_ predicateFormat: String, _ args: [Any]) -> Results<Element> { fatalError("abstract") }
    func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> { fatalError("abstract") }
    func sorted(by descriptors: [SortDescriptor]) -> Results<Element> { fatalError("abstract") }
    func distinct(by keyPaths: [String]) -> Results<Element> { fatalError("abstract") }
    func value(forKeyPath keyPath: String) -> Any? { fatalError("abstract") }
    func setValue(_ value: Any?, forKey key: String) { fatalError("abstract") }
    func isEqual(to other: _AnyRealmCollectionBase<Element>) -> Bool { fatalError("abstract") }
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void
    ) -> NotificationToken { fatalError("abstract") }
}
