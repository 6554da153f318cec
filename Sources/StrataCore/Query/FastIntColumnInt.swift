/// An integer (or link) column compared with an integer constant.
struct FastIntColumnInt: QueryFastBuilder {
    let column: Int, constant: Int64, isLink: Bool
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        if isLink {
            return { row in
                guard let v = row.queryLink(c) else { return Op.unordered }
                return Op.test(v, k)
            }
        }
        return { row in
            guard let v = row.int(c) else { return Op.unordered }
            return Op.test(v, k)
        }
    }
}
