internal import StrataCore

extension MutableSet: RealmCollection, _RealmCollectionQueries {
    /// The set's elements as live results, or empty results after reporting the violation when
    /// the set is unmanaged.
    public var _strataResults: Results<Element> {
        guard let owner else { return _CollectionOwner.unmanagedResults() }
        return owner.results(of: Element.self, kind: .set)
    }

    /// Whether `lhs` and `rhs` are the same set: the same property of the same object in the
    /// same realm when managed; the same members when both are unmanaged.
    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool {
        _CollectionOwner.same(lhs.owner, rhs.owner) { Set(lhs.members) == Set(rhs.members) }
    }
}
