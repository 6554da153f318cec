import StrataQuery

/// A predicate compiled against a table: either known for every row, or a test to run per row.
enum CompiledPredicate {
    case constant(Bool)
    case test(QueryRowTest)
}
