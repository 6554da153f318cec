/// A `double` (or `float`) column compared with a floating-point constant.
struct FastDoubleColumnDouble: QueryFastBuilder {
    let column: Int, constant: Double, isFloat: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, d = constant
        if isFloat {
            return { row in
                guard let v = row.queryFloat(c) else { return Op.unordered }
                return Op.test(Double(v), d)
            }
        }
        return { row in
            guard let v = row.double(c) else { return Op.unordered }
            return Op.test(v, d)
        }
    }
}
