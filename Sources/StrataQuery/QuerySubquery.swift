/// `SUBQUERY(collection, $variable, predicate)`: the elements of a collection that match a
/// predicate of their own. As an operand it stands for the number of those elements
/// (`SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1`).
///
/// Every key path of ``predicate`` starts with ``variable`` (`$d.age`) and names a property of
/// the element; the collection's key path starts with the variable of the enclosing subquery
/// when subqueries nest (`SUBQUERY($d.toys, $t, $t.price > 3)`).
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public struct QuerySubquery: Sendable, Equatable, Hashable {
    /// The key path of the list, set or LinkingObjects property whose elements are tested
    /// (`["dogs"]`, or `["$d", "toys"]` inside another subquery).
    public var collection: [String]
    /// The element's name, with its `$` (`"$d"`).
    public var variable: String
    /// The test of one element.
    public var predicate: QueryPredicate

    /// Creates a subquery over `collection` naming each element `variable`.
    public init(collection: [String], variable: String, predicate: QueryPredicate) {
        self.collection = collection
        self.variable = variable
        self.predicate = predicate
    }
}
