/// One comparison: `left op[options] right`, optionally with a quantifier before `left`.
///
/// Sides are normalised so that the engine sees a property on the left whenever it can: for `==`,
/// `!=`, `<`, `<=`, `>`, `>=`, a constant or argument on the left and a key path on the right
/// are swapped and the operator mirrored (`5 < age` becomes `age > 5`, `'Rex' == name` becomes
/// `name == 'Rex'`). The string operators, `IN` and `BETWEEN` keep their sides as written
/// (`'Rex' IN dogs.name` asks whether the list contains 'Rex').
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public struct QueryComparison: Sendable, Equatable, Hashable {
    /// The left operand; a key path or `%K` when ``quantifier`` is set.
    public var left: QueryOperand
    /// The operator between the operands.
    public var op: QueryOperator
    /// The right operand; a `.list` of two values (or an argument) for `BETWEEN`, a `.list`,
    /// argument or key path for `IN`.
    public var right: QueryOperand
    /// `[c]`, `[d]`, `[cd]` after the operator; empty when none was written.
    public var options: QueryStringOptions
    /// `ANY`, `ALL` or `NONE` before the left key path (`SOME` is `ANY`); `nil` when none was written.
    ///
    /// Without a quantifier, a key path through a list (`dogs.name == 'Rex'`) means `ANY`, as in
    /// Realm; the engine decides that, because only the schema knows which properties are lists.
    public var quantifier: QueryQuantifier?

    /// Creates a comparison. Parameters are in reading order: `quantifier left op[options] right`.
    public init(
        _ left: QueryOperand,
        _ op: QueryOperator,
        _ right: QueryOperand,
        options: QueryStringOptions = [],
        quantifier: QueryQuantifier? = nil
    ) {
        self.left = left
        self.op = op
        self.right = right
        self.options = options
        self.quantifier = quantifier
    }
}
