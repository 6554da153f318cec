/// A date column compared with a date constant.
struct FastTimestampColumn: QueryFastBuilder {
    let column: Int, constant: QueryTimestamp
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, t = constant
        return { row in
            guard let v = row.queryTimestamp(c) else { return Op.unordered }
            return Op.test(v, t)
        }
    }
}
