/// A boolean column compared with a boolean constant.
struct FastBoolColumn: QueryFastBuilder {
    let column: Int, constant: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, b = constant
        return { row in
            guard let v = row.queryBool(c) else { return Op.unordered }
            return Op.test(order: v == b ? 0 : 1)
        }
    }
}
