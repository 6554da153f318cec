import StrataQuery

// Key paths bound to a schema: `owner.name` becomes "follow column 3 of Dog to Person, then read
// column 1", resolved once per evaluation so that rows never see a property name.

extension QueryCompiler {
    // MARK: Resolving

    /// The column of `table` that the property named `name` is stored in: through the model's
    /// Swift names when it maps any (`StoreTransaction.propertyColumns`), else by column name.
    func column(named name: String, in table: StoreTable) -> Int? {
        if let names = txn.propertyColumns[table.name] { return names[name].flatMap { table.columnIndex[$0] } }
        return table.columnIndex[name]
    }

    /// `components` joined by dots. Not `joined(separator:)`: its unspecialized generic body
    /// makes the runtime look up `Array<String>: Collection`, a scan of every conformance
    /// record, in a process's first query.
    static func dotted(_ components: [String]) -> String {
        var text = ""
        for i in components.indices {
            if i > 0 { text += "." }
            text += components[i]
        }
        return text
    }

    /// Binds `components` (and a trailing collection operator) to the schema.
    func resolvePath(_ written: [String], aggregate: QueryAggregate?) throws(StoreQueryError) -> QueryPath {
        var text = Self.dotted(written)
        let components = try withoutVariable(written, text: text)
        if case .element = aggregate {
            text += aggregate!.name
        } else if let aggregate {
            text += (text.isEmpty ? "" : ".") + aggregate.name
            if let p = aggregate.property { text += "." + p }
        }
        guard !components.isEmpty else {
            throw .unknownProperty(table: table.name, property: "", keyPath: text)
        }
        var current = table
        var hops: [QueryHop] = []
        var index = 0
        while index < components.count - 1 || components[index] == "@links" {
            let name = components[index]
            index += 1
            if name == "@links" {
                let backlinks = try resolveLinks(components, at: index, in: current, text: text)
                if let hop = backlinks.hop {
                    hops.append(hop)
                    current = backlinks.origin!
                    index += 2
                    continue
                }
                return try backlinksPath(
                    text: text, hops: hops, table: current, sources: backlinks.terminal, aggregate: aggregate)
            }
            guard let c = self.column(named: name, in: current) else {
                throw .unknownProperty(table: current.name, property: name, keyPath: text)
            }
            let column = current.columns[c]
            switch column.type {
            case .link:
                let target = try linkedTable(column.targetTable, keyPath: text)
                hops.append(
                    column.collection == .none ? .toOne(column: c, target: target) : .toMany(column: c, target: target))
                current = target
            case .linkingObjects:
                let origin = try linkedTable(column.targetTable, keyPath: text)
                guard let originColumn = column.originProperty, origin.columnIndex[originColumn] != nil else {
                    throw .unknownProperty(table: origin.name, property: column.originProperty ?? "", keyPath: text)
                }
                hops.append(.backlinks(origin: origin, originColumn: originColumn))
                current = origin
            default:
                throw .notALink(table: current.name, property: name, keyPath: text)
            }
        }
        let last = components[components.count - 1]
        guard let c = self.column(named: last, in: current) else {
            throw .unknownProperty(table: current.name, property: last, keyPath: text)
        }
        let column = current.columns[c]
        let throughMany = hops.contains(where: \.isToMany)
        let throughOne = hops.contains { !$0.isToMany }
        let isCollection = column.collection != .none || column.type == .linkingObjects
        let elementTarget = column.targetTable

        func path(
            _ type: ColumnType, target: String?, nullable: Bool, multi: Bool,
            aggregateTable: StoreTable? = nil, aggregateColumn: Int? = nil
        ) -> QueryPath {
            QueryPath(
                text: text, hops: hops, terminalTable: current, terminalColumn: c, aggregate: aggregate,
                aggregateTable: aggregateTable, aggregateColumn: aggregateColumn, valueType: type,
                linkTarget: target, nullable: nullable || (throughOne && !multi), isMulti: multi)
        }

        guard let aggregate else {
            if column.type == .linkingObjects {
                return path(.link, target: elementTarget, nullable: false, multi: true)
            }
            let nullable =
                column.isNullable || column.type == .mixed || (column.type == .link && column.collection == .none)
            return path(column.type, target: elementTarget, nullable: nullable, multi: throughMany || isCollection)
        }

        switch aggregate {
        case .type:
            guard column.type == .mixed else {
                throw .invalidAggregate(
                    keyPath: text, aggregate: aggregate.name,
                    reason:
                        "'\(current.name).\(last)' holds \(QueryPath.typeName(column.type, target: elementTarget)) values; @type applies to AnyRealmValue properties (and lists, sets and maps of them)"
                )
            }
            return path(.mixed, target: nil, nullable: true, multi: throughMany || isCollection)
        case .keys, .values, .element:
            guard column.collection == .map else {
                throw .invalidAggregate(
                    keyPath: text, aggregate: aggregate.name,
                    reason:
                        "'\(current.name).\(last)' is not a map; \(aggregate.name) applies to a Map property"
                )
            }
            switch aggregate {
            case .keys: return path(.string, target: nil, nullable: false, multi: true)
            case .values: return path(column.type, target: elementTarget, nullable: true, multi: true)
            default: return path(column.type, target: elementTarget, nullable: true, multi: throughMany)
            }
        case .count, .size:
            guard isCollection || (column.collection == .none && (column.type == .string || column.type == .data))
            else {
                throw .invalidAggregate(
                    keyPath: text, aggregate: aggregate.name,
                    reason:
                        "'\(current.name).\(last)' is a single \(QueryPath.typeName(column.type, target: elementTarget)) value; \(aggregate.name) counts the elements of a list, set, map or LinkingObjects property, or the length of a string or data value"
                )
            }
            return path(.int, target: nil, nullable: column.isNullable && !isCollection, multi: throughMany)
        case .min(let property), .max(let property), .sum(let property), .avg(let property):
            guard isCollection else {
                throw .invalidAggregate(
                    keyPath: text, aggregate: aggregate.name,
                    reason:
                        "'\(current.name).\(last)' is not a collection; \(aggregate.name) applies to a list, set, map or LinkingObjects property"
                )
            }
            var elementType = column.type
            var elementTable: StoreTable? = nil
            var elementColumn: Int? = nil
            if let property {
                guard column.type == .link || column.type == .linkingObjects else {
                    throw .invalidAggregate(
                        keyPath: text, aggregate: aggregate.name,
                        reason:
                            "'\(current.name).\(last)' holds \(QueryPath.typeName(column.type, target: nil)) values, not objects; write \(last).\(aggregate.name) without a property"
                    )
                }
                let target = try linkedTable(elementTarget, keyPath: text)
                guard let ac = self.column(named: property, in: target) else {
                    throw .unknownProperty(table: target.name, property: property, keyPath: text)
                }
                guard target.columns[ac].collection == .none, target.columns[ac].isStored else {
                    throw .invalidAggregate(
                        keyPath: text, aggregate: aggregate.name,
                        reason:
                            "'\(target.name).\(property)' is a collection; aggregate a single numeric property of each object"
                    )
                }
                elementType = target.columns[ac].type
                elementTable = target
                elementColumn = ac
            } else if column.type == .link || column.type == .linkingObjects {
                throw .invalidAggregate(
                    keyPath: text, aggregate: aggregate.name,
                    reason:
                        "the elements are objects; name the property to aggregate, e.g. \(last).\(aggregate.name).age")
            }
            let numeric = elementType == .int || elementType == .float || elementType == .double
            let type: ColumnType
            switch aggregate {
            case .sum:
                guard numeric else { throw notNumeric(aggregate, elementType, text) }
                type = elementType == .int ? .int : .double
                return path(
                    type, target: nil, nullable: false, multi: throughMany, aggregateTable: elementTable,
                    aggregateColumn: elementColumn)
            case .avg:
                guard numeric else { throw notNumeric(aggregate, elementType, text) }
                return path(
                    .double, target: nil, nullable: true, multi: throughMany, aggregateTable: elementTable,
                    aggregateColumn: elementColumn)
            default:
                guard numeric || elementType == .timestamp else { throw notNumeric(aggregate, elementType, text) }
                return path(
                    elementType, target: nil, nullable: true, multi: throughMany, aggregateTable: elementTable,
                    aggregateColumn: elementColumn)
            }
        }
    }

    /// `@links.Class.property` at `index` (just after `@links`) in `components`: a hop to the
    /// objects of `Class` whose `property` links to `table`'s object, or, at the end of the path
    /// (and for `@links` alone, every link to it), the backlinks that are the path's values.
    private func resolveLinks(
        _ components: [String], at index: Int, in table: StoreTable, text: String
    ) throws(StoreQueryError) -> (hop: QueryHop?, origin: StoreTable?, terminal: [(origin: StoreTable, column: String)])
    {
        if index == components.count {
            var sources: [(origin: StoreTable, column: String)] = []
            for name in txn.tables.keys.sorted() {
                let origin = txn.tables[name]!
                for column in origin.columns where column.type == .link && column.targetTable == table.name {
                    sources.append((origin, column.name))
                }
            }
            return (nil, nil, sources)
        }
        guard index + 1 < components.count else {
            throw .unsupported(
                "'\(text)' names no property after @links.\(components[index]); write @links.\(components[index]).property, the property of \(components[index]) that links here."
            )
        }
        let className = components[index]
        let property = components[index + 1]
        guard let origin = txn.tables[className] else {
            throw .unknownTable(table: className, keyPath: text)
        }
        guard let c = column(named: property, in: origin) else {
            throw .unknownProperty(table: origin.name, property: property, keyPath: text)
        }
        let column = origin.columns[c]
        guard column.type == .link, column.targetTable == table.name else {
            throw .invalidAggregate(
                keyPath: text, aggregate: "@links",
                reason:
                    "'\(origin.name).\(property)' does not link to '\(table.name)' objects; @links.\(className).property names a link, list or set of '\(table.name)' objects"
            )
        }
        let hop = QueryHop.backlinks(origin: origin, originColumn: column.name)
        if index + 2 == components.count { return (nil, nil, [(origin, column.name)]) }
        return (hop, origin, [])
    }

    /// The path whose values are the objects linking to the object through `sources`.
    private func backlinksPath(
        text: String, hops: [QueryHop], table: StoreTable, sources: [(origin: StoreTable, column: String)],
        aggregate: QueryAggregate?
    ) throws(StoreQueryError) -> QueryPath {
        let throughMany = hops.contains(where: \.isToMany)
        let target = sources.count == 1 ? sources[0].origin.name : nil
        switch aggregate {
        case nil:
            guard target != nil else {
                throw .invalidAggregate(
                    keyPath: text, aggregate: "@links",
                    reason:
                        "@links alone counts every link to the object; write @links.@count, or @links.Class.property")
            }
            var path = QueryPath(
                text: text, hops: hops, terminalTable: table, terminalColumn: 0, aggregate: nil, aggregateTable: nil,
                aggregateColumn: nil, valueType: .link, linkTarget: target, nullable: false, isMulti: true)
            path.terminalBacklinks = sources
            return path
        case .count?, .size?:
            var path = QueryPath(
                text: text, hops: hops, terminalTable: table, terminalColumn: 0, aggregate: aggregate,
                aggregateTable: nil, aggregateColumn: nil, valueType: .int, linkTarget: nil, nullable: false,
                isMulti: throughMany)
            path.terminalBacklinks = sources
            return path
        case let other?:
            throw .invalidAggregate(
                keyPath: text, aggregate: other.name,
                reason:
                    "after @links only @count and @size apply; to aggregate the linking objects' properties declare a LinkingObjects property and write owners.\(other.name).age"
            )
        }
    }

    private func notNumeric(_ aggregate: QueryAggregate, _ type: ColumnType, _ text: String) -> StoreQueryError {
        let what: String
        switch aggregate {
        case .sum, .avg: what = "int, float or double"
        case .count, .size, .min, .max, .keys, .values, .element, .type: what = "int, float, double or date"
        }
        return .invalidAggregate(
            keyPath: text, aggregate: aggregate.name,
            reason: "the values are \(QueryPath.typeName(type, target: nil)); \(aggregate.name) needs \(what) values")
    }

    private func linkedTable(_ name: String?, keyPath: String) throws(StoreQueryError) -> StoreTable {
        guard let name, let target = txn.tables[name] else {
            throw .unknownTable(table: name ?? "?", keyPath: keyPath)
        }
        return target
    }

    /// The key path a `%K` argument names: a string such as `"owner.name"` or `"dogs.@avg.age"`.
    func keyPathArgument(_ index: Int) throws(StoreQueryError) -> QueryPath {
        let value = try argument(index)
        let expected = "a key path string such as \"owner.name\" for %K"
        guard case .string(let text) = value else {
            throw .invalidArgument(index: index, expected: expected, found: value.kindName)
        }
        let notAKeyPath = StoreQueryError.invalidArgument(
            index: index, expected: expected, found: "string that is not a key path")
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let at = parts.firstIndex(where: { $0.hasPrefix("@") }) else {
            guard !parts.contains(where: \.isEmpty) else { throw notAKeyPath }
            return try resolvePath(parts, aggregate: nil)
        }
        let components = Array(parts[..<at])
        guard !components.contains(where: \.isEmpty), parts.count - at <= 2 else { throw notAKeyPath }
        let property = parts.count - at == 2 ? parts[at + 1] : nil
        if let property, property.isEmpty || property.hasPrefix("@") { throw notAKeyPath }
        let aggregate: QueryAggregate
        switch parts[at].lowercased() {
        case "@count" where property == nil: aggregate = .count
        case "@size" where property == nil: aggregate = .size
        case "@keys" where property == nil: aggregate = .keys
        case "@values" where property == nil: aggregate = .values
        case "@type" where property == nil: aggregate = .type
        case "@min": aggregate = .min(property)
        case "@max": aggregate = .max(property)
        case "@sum": aggregate = .sum(property)
        case "@avg": aggregate = .avg(property)
        default: throw notAKeyPath
        }
        return try resolvePath(components, aggregate: aggregate)
    }

    // MARK: Reading values

    /// A function reading the single value of a path that is not multi-valued.
    func singleValue(_ path: QueryPath) -> (RowReader) throws -> StoreValue {
        let terminal = terminalValue(path)
        let hops = path.hops
        if hops.isEmpty { return terminal }
        let txn = self.txn
        return { row in
            var current = row
            for hop in hops {
                guard case .toOne(let c, let target) = hop, case .link(let key) = current.value(c),
                    let next = try txn.row(target, key: key)
                else { return .null }
                current = next
            }
            return try terminal(current)
        }
    }

    /// A function reading every value of a multi-valued path, in a stable order.
    func multiValues(_ path: QueryPath) -> (RowReader) throws -> [StoreValue] {
        let hops = path.hops
        let txn = self.txn
        let root = self.table
        let collection: (RowReader) throws -> [StoreValue]
        switch path.aggregate {
        case nil, .keys?, .values?, .type?:
            collection = elements(path)
        default:
            let terminal = terminalValue(path)
            collection = { [try terminal($0)] }
        }
        return { row in
            var rows = [row]
            var table = root
            for hop in hops {
                var next: [RowReader] = []
                for r in rows {
                    try QueryCompiler.follow(hop, from: r, in: table, txn: txn) { next.append($0) }
                }
                rows = next
                switch hop {
                case .toOne(_, let target), .toMany(_, let target): table = target
                case .backlinks(let origin, _): table = origin
                }
            }
            if rows.count == 1 { return try collection(rows[0]) }
            var values: [StoreValue] = []
            for r in rows { values.append(contentsOf: try collection(r)) }
            return values
        }
    }

    /// Calls `body` with each row `hop` leads to from `row` (of `table`).
    static func follow(
        _ hop: QueryHop, from row: RowReader, in table: StoreTable, txn: StoreTransaction,
        _ body: (RowReader) throws -> Void
    ) throws {
        switch hop {
        case .toOne(let c, let target):
            if case .link(let key) = row.value(c), let next = try txn.row(target, key: key) { try body(next) }
        case .toMany(let c, let target):
            for element in collectionElements(row.value(c)) {
                if case .link(let key) = element, let next = try txn.row(target, key: key) { try body(next) }
            }
        case .backlinks(let origin, let originColumn):
            for key in try txn.backlinks(to: table, key: row.key, from: origin.name, column: originColumn) {
                if let next = try txn.row(origin, key: key) { try body(next) }
            }
        }
    }

    /// The elements of a list, set or map value (a map's values, by key order).
    static func collectionElements(_ value: StoreValue) -> [StoreValue] {
        switch value {
        case .list(let elements): return elements
        case .map(let entries):
            return entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { entries[$0]! }
        default: return []
        }
    }

    /// The elements of the terminal collection of `path` in one row of its terminal table.
    private func elements(_ path: QueryPath) -> (RowReader) throws -> [StoreValue] {
        if let sources = path.terminalBacklinks {
            let txn = self.txn
            let table = path.terminalTable
            return { row in
                var values: [StoreValue] = []
                for (origin, column) in sources {
                    for key in try txn.backlinks(to: table, key: row.key, from: origin.name, column: column) {
                        values.append(.link(key))
                    }
                }
                return values
            }
        }
        let c = path.terminalColumn
        let table = path.terminalTable
        let column = table.columns[c]
        if column.type == .linkingObjects, let originName = column.targetTable, let originColumn = column.originProperty
        {
            let txn = self.txn
            return { row in
                try txn.backlinks(to: table, key: row.key, from: originName, column: originColumn).map(StoreValue.link)
            }
        }
        if column.collection == .none {
            return { [$0.value(c)] }
        }
        if case .keys? = path.aggregate {
            return { row in
                guard case .map(let entries) = row.value(c) else { return [] }
                return entries.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(StoreValue.string)
            }
        }
        return { QueryCompiler.collectionElements($0.value(c)) }
    }

    /// The value of the last component (with its aggregate) in one row of the terminal table.
    private func terminalValue(_ path: QueryPath) -> (RowReader) throws -> StoreValue {
        let c = path.terminalColumn
        guard let aggregate = path.aggregate else {
            return { $0.value(c) }
        }
        let elements = self.elements(path)
        if path.terminalBacklinks != nil {
            return { .int(Int64(try elements($0).count)) }
        }
        let column = path.terminalTable.columns[c]
        switch aggregate {
        case .element(let key):
            return { row in
                guard case .map(let entries) = row.value(c) else { return .null }
                return entries[key] ?? .null
            }
        case .type:
            // The value itself; the comparison tests its type.
            return { $0.value(c) }
        case .keys, .values:
            // Multi-valued: read through `multiValues`, never as one value.
            return { .list(try elements($0)) }
        case .count, .size:
            if column.collection == .none && column.type == .string {
                return { row in row.string(c).map { .int(Int64($0.count)) } ?? .null }
            }
            if column.collection == .none && column.type == .data {
                return { row in row.variableBytes(c).map { .int(Int64($0.count)) } ?? .null }
            }
            return { .int(Int64(try elements($0).count)) }
        case .min, .max, .sum, .avg:
            let values: (RowReader) throws -> [StoreValue]
            if let target = path.aggregateTable, let ac = path.aggregateColumn {
                let txn = self.txn
                values = { row in
                    var result: [StoreValue] = []
                    for element in try elements(row) {
                        if case .link(let key) = element, let r = try txn.row(target, key: key) {
                            result.append(r.value(ac))
                        }
                    }
                    return result
                }
            } else {
                values = elements
            }
            switch aggregate {
            case .sum: return { QueryValues.sum(try values($0)) }
            case .avg: return { QueryValues.average(try values($0)) }
            case .min: return { QueryValues.extreme(try values($0), sign: -1) }
            default: return { QueryValues.extreme(try values($0), sign: 1) }
            }
        }
    }
}
