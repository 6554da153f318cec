import StrataStorage
import StrataQuery

/// `value op k` on the decoded value, for a cluster without nulls in the column.
struct NonNullValueMatcher<V: SimpleColumnValue, Op: QueryComparisonOperator>: RowMatcher {
    let column: ColumnArray
    let k: V
    @inline(__always) func callAsFunction(_ i: Int) -> Bool { Op.test(V.load(column, i), k) }
}
