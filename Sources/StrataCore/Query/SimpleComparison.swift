import StrataStorage
import StrataQuery

/// The comparison a query reduced to, when it is `column op constant` on an `Int` or `Double` column.
struct SimpleComparison {
    enum Constant {
        case int(Int64)
        case double(Double)
    }
    let column: Int
    let op: QueryOperator
    let constant: Constant
}
