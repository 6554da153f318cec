/// An integer column compared with a floating-point constant.
struct FastIntColumnDouble: QueryFastBuilder {
    let column: Int, constant: Double
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, d = constant
        return { row in
            guard let v = row.int(c), let order = QueryValues.compare(v, d) else { return Op.unordered }
            return Op.test(order: order)
        }
    }
}
