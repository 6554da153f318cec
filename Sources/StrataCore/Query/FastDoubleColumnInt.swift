/// A `double` (or `float`) column compared with an integer constant.
struct FastDoubleColumnInt: QueryFastBuilder {
    let column: Int, constant: Int64, isFloat: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        if isFloat {
            return { row in
                guard let v = row.queryFloat(c), let order = QueryValues.compare(k, Double(v)) else {
                    return Op.unordered
                }
                return Op.test(order: -order)
            }
        }
        return { row in
            guard let v = row.double(c), let order = QueryValues.compare(k, v) else { return Op.unordered }
            return Op.test(order: -order)
        }
    }
}
