import Foundation
internal import StrataCore

/// The changes an observer watches in one table: columns of its own, and links whose targets'
/// changes count too (each with the filter of the target table).
///
/// Without key paths an observer watches every column of its objects and every column of the
/// objects reached through up to four links (links, lists, sets and maps of objects, embedded
/// objects; then their links, and so on), as RealmSwift does.
/// With key paths it watches exactly those: `"name"` a column; `"toys"` the link or list itself
/// (set, cleared, an element added or removed); `"toys.brand"` that and the `brand` of every
/// toy linked; and so on through more links.
///
/// ## Concurrency
/// Immutable; used by the notifier thread.
final class KeyPathFilter: @unchecked Sendable {
    struct Link {
        let column: Int
        let columnName: String
        let target: StoreTable
        let filter: KeyPathFilter
    }

    let table: StoreTable
    let columns: ColumnSet
    let links: [Link]
    /// How many links away an observer without key paths still sees changes.
    static let defaultLinkDepth = 4

    init(table: StoreTable, columns: ColumnSet, links: [Link]) {
        self.table = table
        self.columns = columns
        self.links = links
    }

    /// The filter for `keyPaths` (property names joined by dots) on `binding`'s objects, or for
    /// everything when nil. Reports an unknown property through `Realm.violation` and returns nil.
    static func make(_ keyPaths: [String]?, binding: TableBinding, file: RealmFile) -> KeyPathFilter? {
        let tables = file.allBindings()
        func column(_ name: String, in table: StoreTable) -> Int? {
            if table.name == binding.table.name, let i = binding.propertyIndexByName[name] { return binding.columns[i] }
            if let b = tables.first(where: { $0.table.name == table.name }), let i = b.propertyIndexByName[name] {
                return b.columns[i]
            }
            return table.columnIndex[name]
        }
        func target(_ c: Int, of table: StoreTable) -> StoreTable? {
            guard let name = table.columns[c].targetTable else { return nil }
            return file.tables(named: name)
        }
        guard let keyPaths else {
            // Every column, and every column of the objects reached through up to
            // `defaultLinkDepth` links (realm-core's deep change check goes as far).
            func everything(_ table: StoreTable, depth: Int) -> KeyPathFilter {
                var links: [Link] = []
                if depth < Self.defaultLinkDepth {
                    for (c, col) in table.columns.enumerated() where col.type == .link {
                        if let t = target(c, of: table) {
                            links.append(
                                Link(
                                    column: c, columnName: col.name, target: t,
                                    filter: everything(t, depth: depth + 1)))
                        }
                    }
                }
                return KeyPathFilter(table: table, columns: .all, links: links)
            }
            return everything(binding.table, depth: 0)
        }
        // Build a tree of the paths, table by table.
        func build(_ paths: [[String]], table: StoreTable, className: String) -> KeyPathFilter? {
            var columns = ColumnSet()
            var deeper: [Int: [[String]]] = [:]
            for path in paths {
                guard let first = path.first else { continue }
                guard let c = column(first, in: table) else {
                    return Realm.violation(
                        "Property '\(first)' not found in object of type '\(className)'. Observed key paths name properties of the observed class, joined by '.' to follow links.",
                        fallback: nil)
                }
                columns.insert(c)
                if path.count > 1 {
                    guard table.columns[c].type == .link, target(c, of: table) != nil else {
                        return Realm.violation(
                            "Property '\(first)' of '\(className)' is not a link, so the key path '\(path.joined(separator: "."))' cannot go on past it.",
                            fallback: nil)
                    }
                    deeper[c, default: []].append(Array(path.dropFirst()))
                }
            }
            var links: [Link] = []
            for (c, rest) in deeper.sorted(by: { $0.key < $1.key }) {
                let t = target(c, of: table)!
                guard let f = build(rest, table: t, className: t.name) else { return nil }
                links.append(Link(column: c, columnName: table.columns[c].name, target: t, filter: f))
            }
            return KeyPathFilter(table: table, columns: columns, links: links)
        }
        return build(
            keyPaths.map { $0.split(separator: ".").map(String.init) }, table: binding.table,
            className: binding.className)
    }

    /// The objects of this filter's table that changed in a watched way across `span`: a watched
    /// column written, or a watched linked object changed (found through the backlinks of the
    /// changed targets, so the cost follows what changed). Deleted objects are not included.
    func modifiedKeys(_ span: ChangeSpan) throws -> Set<Int64> {
        if let cached = span.filterCache[ObjectIdentifier(self)] { return cached }
        let changes = try span.changes(table.name)
        var out = Set<Int64>()
        for (k, c) in changes.modified where c.intersects(columns) { out.insert(k) }
        for link in links {
            let changedTargets = try link.filter.modifiedKeys(span)
            for t in changedTargets {
                for origin in try span.new.backlinks(to: link.target, key: t, from: table.name, column: link.columnName)
                where !changes.deleted.contains(origin) {
                    out.insert(origin)
                }
            }
        }
        span.filterCache[ObjectIdentifier(self)] = out
        return out
    }

    /// The watched links through which object `key` saw a change (for object observers).
    func changedLinks(of key: Int64, _ span: ChangeSpan) throws -> [Link] {
        var out: [Link] = []
        for link in links {
            let changedTargets = try link.filter.modifiedKeys(span)
            if changedTargets.isEmpty { continue }
            for t in changedTargets {
                if try span.new.backlinks(to: link.target, key: t, from: table.name, column: link.columnName).contains(
                    key)
                {
                    out.append(link)
                    break
                }
            }
        }
        return out
    }
}

extension RealmFile {
    /// The stored table called `name`, as this process knows it.
    func tables(named name: String) -> StoreTable? {
        lock.lock()
        defer { lock.unlock() }
        return tables[name]
    }
}
