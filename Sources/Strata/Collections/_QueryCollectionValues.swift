/// Collections whose values `where { }` can aggregate or range-check (`$0.scores.max`,
/// `$0.scores.contains(1..<5)`): `List`, `MutableSet` and `Map` (its values). Not API.
public protocol _QueryCollectionValues {
    /// The type of the collection's values.
    associatedtype _StrataQueryElement
}

extension List: _QueryCollectionValues {
    public typealias _StrataQueryElement = Element
}

extension MutableSet: _QueryCollectionValues {
    public typealias _StrataQueryElement = Element
}

extension Map: _QueryCollectionValues {
    public typealias _StrataQueryElement = Value
}
