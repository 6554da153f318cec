/// A string or data column compared byte-wise with a constant.
struct FastBytesColumn: QueryFastBuilder {
    let column: Int, constant: [UInt8]
    func build<Op: QueryComparisonOperator>(_ op: Op.Type) -> QueryRowTest {
        let c = column, k = constant
        return { row in
            guard let v = row.variableBytes(c) else { return Op.unordered }
            return k.withUnsafeBytes { Op.test(order: QueryValues.compareRaw(v, $0)) }
        }
    }
}
