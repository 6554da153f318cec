/// Membership tests of collection properties in `where { }`, as RealmSwift has them:
/// `$0.dogs.contains(rex)`, `$0.tags.contains("urgent")`, `$0.tags.containsAny(in: ["a", "b"])`.
extension Query {
    /// The list holds `element` (for objects: the same stored object).
    public func contains<E: RealmCollectionValue>(_ element: E) -> Query<Bool> where T == List<E> {
        compare(.equal, element)
    }

    /// The set holds `element` (for objects: the same stored object).
    public func contains<E: RealmCollectionValue>(_ element: E) -> Query<Bool> where T == MutableSet<E> {
        compare(.equal, element)
    }

    /// The list holds at least one of `elements`.
    public func containsAny<E: RealmCollectionValue, S: Sequence>(in elements: S) -> Query<Bool>
    where T == List<E>, S.Element == E {
        compare(.in, elements.map { $0 as Any })
    }

    /// The set holds at least one of `elements`.
    public func containsAny<E: RealmCollectionValue, S: Sequence>(in elements: S) -> Query<Bool>
    where T == MutableSet<E>, S.Element == E {
        compare(.in, elements.map { $0 as Any })
    }
}
