import StrataQuery

extension QueryCompiler {
    // MARK: Index planning

    /// The index lookups whose union holds every row `predicate` can match, or nil when the
    /// predicate needs a scan. Only called after `compile` accepted the predicate.
    ///
    /// - `prop == constant` and `prop IN {...}` on an indexed or primary-key column: lookups.
    /// - `AND`: the child with the fewest lookups (a primary key preferred).
    /// - `OR`: the union, when every child has lookups.
    func indexProbes(_ predicate: QueryPredicate) -> [IndexProbe]? {
        switch predicate {
        case .comparison(let comparison):
            return indexProbe(comparison).map { [$0] }
        case .and(let children):
            var best: [IndexProbe]? = nil
            func cost(_ probes: [IndexProbe]) -> Int {
                probes.reduce(0) { $0 + $1.values.count * ($1.isPrimaryKey ? 1 : 2) }
            }
            for child in children {
                guard let probes = indexProbes(child) else { continue }
                if best == nil || cost(probes) < cost(best!) { best = probes }
            }
            return best
        case .or(let children):
            var all: [IndexProbe] = []
            for child in children {
                guard let probes = indexProbes(child) else { return nil }
                all.append(contentsOf: probes)
            }
            return all
        case .not, .truePredicate, .falsePredicate:
            return nil
        }
    }

    private func indexProbe(_ comparison: QueryComparison) -> IndexProbe? {
        guard comparison.quantifier == nil, comparison.options.isEmpty,
            comparison.op == .equal || comparison.op == .in,
            case .path(let path)? = try? bind(comparison.left), let c = path.directColumn
        else { return nil }
        let column = table.columns[c]
        guard column.collection == .none, column.isPrimaryKey || column.hasIndexTree else { return nil }
        switch column.type {
        case .mixed, .link, .linkingObjects: return nil
        default: break
        }
        var constants: [StoreValue]
        switch try? bind(comparison.right) {
        case .constant(let value, _, _)? where comparison.op == .equal:
            constants = [value]
        case .constant(.list(let values), _, _)? where comparison.op == .in:
            constants = values
        case .list(let values)? where comparison.op == .in:
            constants = values.map(\.value)
        default:
            return nil
        }
        var values: [StoreValue] = []
        for constant in constants {
            switch lookupValue(constant, column: column) {
            case .value(let v): if !values.contains(v) { values.append(v) }
            case .matchesNothing: continue
            case .unusable: return nil
            }
        }
        return IndexProbe(column: c, values: values, isPrimaryKey: column.isPrimaryKey)
    }

    private enum LookupValue {
        case value(StoreValue)
        /// No stored value can equal the constant (`age == 1.5` on an Int column).
        case matchesNothing
        /// The index cannot answer this constant; scan instead.
        case unusable
    }

    /// The constant as the index stores values of `column`, so that index equality is the query's
    /// equality (QueryValues.equal).
    private func lookupValue(_ constant: StoreValue, column: StoreColumn) -> LookupValue {
        switch (column.type, constant) {
        case (_, .null):
            // An optional Int primary key keeps its nil key as an object key too (RowLayout.nullKey).
            return !column.isNullable ? .matchesNothing : .value(.null)
        case (.int, .int):
            return .value(constant)
        case (.int, .float(let f)):
            return lookupValue(.double(Double(f)), column: column)
        case (.int, .double(let d)):
            guard !d.isNaN, d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0,
                d.rounded(.towardZero) == d
            else { return .matchesNothing }
            return .value(.int(Int64(d)))
        case (.double, .double(let d)), (.float, .double(let d)):
            return d.isNaN ? .matchesNothing : .value(.double(d))
        case (.double, .float(let f)), (.float, .float(let f)):
            return f.isNaN ? .matchesNothing : .value(.double(Double(f)))
        case (.double, .int(let k)), (.float, .int(let k)):
            let d = Double(k)
            return QueryValues.compare(k, d) == 0 ? .value(.double(d)) : .matchesNothing
        case (.bool, .bool), (.string, .string), (.data, .data), (.timestamp, .timestamp), (.objectId, .objectId),
            (.uuid, .uuid), (.decimal128, .decimal128):
            return .value(constant)
        default:
            return .unusable
        }
    }
}

extension QueryCompiler {
    // MARK: Sort and distinct keys

    /// A function reading the value of a sort or distinct key path: a single value reached
    /// through to-one links only.
    func sortValue(_ keyPath: String) throws(StoreQueryError) -> (RowReader) throws -> StoreValue {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if components.contains(where: { $0.hasPrefix("@") }) {
            throw .invalidSortKeyPath(
                keyPath: keyPath,
                reason: "collection operators such as @count cannot be sorted or de-duplicated by; sort by a property")
        }
        if components.contains(where: \.isEmpty) {
            throw .invalidSortKeyPath(
                keyPath: keyPath,
                reason: "it is not a key path; write property names separated by dots, such as owner.name")
        }
        let path = try resolvePath(components, aggregate: nil)
        guard !path.isMulti else {
            throw .invalidSortKeyPath(
                keyPath: keyPath,
                reason:
                    "it goes through a list, set, map or LinkingObjects property; only single values reached through to-one links can be sorted or de-duplicated by"
            )
        }
        return singleValue(path)
    }
}
