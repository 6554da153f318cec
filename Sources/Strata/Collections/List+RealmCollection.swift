internal import StrataCore

extension List: RealmCollection, _RealmCollectionQueries {
    /// The list's elements as live results, or empty results after reporting the violation
    /// when the list is unmanaged.
    public var _strataResults: Results<Element> {
        guard let owner else { return _CollectionOwner.unmanagedResults() }
        return owner.results(of: Element.self, kind: .list)
    }

    /// Whether `lhs` and `rhs` are the same list: the same property of the same object in the
    /// same realm when managed; the same elements in the same order when both are unmanaged.
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        _CollectionOwner.same(lhs.owner, rhs.owner) { lhs.elements == rhs.elements }
    }
}
