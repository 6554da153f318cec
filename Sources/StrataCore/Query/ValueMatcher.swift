import StrataStorage
import StrataQuery

/// `value op k` on the decoded value, with `Op.unordered` for a null when the cluster has nulls.
struct ValueMatcher<V: SimpleColumnValue, Op: QueryComparisonOperator>: RowMatcher {
    let column: ColumnArray
    let k: V
    @inline(__always) func callAsFunction(_ i: Int) -> Bool {
        column.isNull(i) ? Op.unordered : Op.test(V.load(column, i), k)
    }
}
