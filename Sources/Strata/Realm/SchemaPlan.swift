import Foundation
internal import StrataCore
internal import StrataStorage

/// How the stored tables become the models' tables: per model class, what happens to its table.
///
/// Renames recorded in the schema history are applied to the stored schema first (a class or
/// property keeps its objects and values under the new name); the renamed stored table is then
/// compared with the model's.
struct SchemaPlan {
    enum Action {
        /// The stored table is the model's.
        case same
        /// No stored table: create it.
        case create
        /// Columns added at the end, index or catalog changes (renamed link targets): no row changes.
        case additive(newIndexes: [Int], droppedIndexTrees: [String])
        /// The rows are written again: from the stored table `old` (its stored name), column `i`
        /// of the new table taking the value of `sources[i]` of the old one (nil: the default).
        case rewrite(old: StoreTable, sources: [Int?])
    }

    struct Item {
        let type: any ObjectSchemaProviding.Type
        /// The table the class ends with.
        let table: StoreTable
        let action: Action
        /// Differences that lose or convert data (RealmSwift's "Migration is required" list).
        let lossy: [String]
        /// Recorded renames applied to this class.
        let renames: [String]
        /// The stored table the class is bound to while nothing is written (same and additive:
        /// `table`; for a read-only file, see `readOnlyTable`).
        let stored: StoreTable?

        var currentTable: StoreTable { table }

        /// The table a read-only realm binds: the stored columns plus the added ones (read as their
        /// defaults), indexes as stored (a missing index tree would find nothing).
        var readOnlyTable: StoreTable {
            guard let stored else { return table }
            var columns = stored.columns
            for c in table.columns where stored.columnIndex[c.name] == nil {
                var added = c
                added.isIndexed = false
                columns.append(added)
            }
            return StoreTable(name: stored.name, isEmbedded: stored.isEmbedded, columns: columns)
        }
    }

    var items: [Item] = []
    /// Stored tables no model declares (kept, as RealmSwift keeps them), after renames of their link
    /// targets; `catalogChanged` lists those whose stored record must be rewritten.
    var others: [String: StoreTable] = [:]
    var catalogChanged: Set<String> = []
    /// The stored name of each table in `others` that was renamed.
    var otherOrigins: [String: String] = [:]
    /// Stored tables renamed away: their old trees are dropped.
    var renamedAway: [String] = []

    var lossyReasons: [String] { items.flatMap(\.lossy) }
    var renameReasons: [String] { items.flatMap(\.renames) }
    var readOnlyProblems: [String] { catalogChanged.sorted().map { "Class '\($0)' links to a renamed class." } }

    var needsWrite: Bool {
        !catalogChanged.isEmpty || items.contains { if case .same = $0.action { false } else { true } }
    }

    init(
        stored: [String: StoreTable], desired: [(any ObjectSchemaProviding.Type, StoreTable)], renames: [MigrationStep]
    ) {
        // 1. Renames, in recorded order, on the stored schema: `origin` maps each current table
        // name to its stored name, `columnOrigin` each current column name to its stored one.
        var tables = stored
        var origin: [String: String] = Dictionary(uniqueKeysWithValues: stored.keys.map { ($0, $0) })
        var columnOrigin: [String: [String: String]] = [:]
        var renameNotes: [String: [String]] = [:]
        for step in renames {
            switch step {
            case .renameType(let from, let to):
                guard let t = tables[from], tables[to] == nil else { continue }
                tables[from] = nil
                tables[to] = StoreTable(name: to, isEmbedded: t.isEmbedded, columns: t.columns)
                origin[to] = origin[from]
                origin[from] = nil
                columnOrigin[to] = columnOrigin[from]
                columnOrigin[from] = nil
                renameNotes[to, default: []].append("Class '\(from)' is renamed to '\(to)'.")
                // Links and LinkingObjects of every table follow the class.
                for (name, table) in tables where table.columns.contains(where: { $0.targetTable == from }) {
                    let columns = table.columns.map { c -> StoreColumn in
                        var c = c
                        if c.targetTable == from { c.targetTable = to }
                        return c
                    }
                    tables[name] = StoreTable(name: name, isEmbedded: table.isEmbedded, columns: columns)
                }
            case .renameProperty(let type, let from, let to):
                guard let t = tables[type], let i = t.columnIndex[from], t.columnIndex[to] == nil else { continue }
                var columns = t.columns
                columns[i].name = to
                tables[type] = StoreTable(name: type, isEmbedded: t.isEmbedded, columns: columns)
                let storedName = columnOrigin[type]?[from] ?? from
                columnOrigin[type, default: [:]][from] = nil
                columnOrigin[type, default: [:]][to] = storedName
                renameNotes[type, default: []].append("Property '\(type).\(from)' is renamed to '\(to)'.")
                // LinkingObjects that invert the renamed link column follow it.
                for (name, table) in tables
                where table.columns.contains(where: { $0.targetTable == type && $0.originProperty == from }) {
                    let columns = table.columns.map { c -> StoreColumn in
                        var c = c
                        if c.type == .linkingObjects, c.targetTable == type, c.originProperty == from {
                            c.originProperty = to
                        }
                        return c
                    }
                    tables[name] = StoreTable(name: name, isEmbedded: table.isEmbedded, columns: columns)
                }
            default:
                continue
            }
        }
        let desiredNames = Set(desired.map { $0.1.name })
        // Tables whose stored record or name changed through renames.
        func changedByRenames(_ name: String) -> Bool {
            guard let t = tables[name], let o = origin[name], let s = stored[o] else { return false }
            return o != name || t.columns != s.columns
        }
        for (name, t) in tables where !desiredNames.contains(name) {
            others[name] = t
            if changedByRenames(name) {
                if origin[name] != name {
                    renamedAway.append(origin[name]!)
                    otherOrigins[name] = origin[name]!
                }
                catalogChanged.insert(name)
            }
        }
        // 2. Each model class against its (renamed) stored table.
        for (type, desiredTable) in desired {
            let name = desiredTable.name
            guard let current = tables[name], let storedName = origin[name], let storedTable = stored[storedName] else {
                items.append(
                    Item(type: type, table: desiredTable, action: .create, lossy: [], renames: [], stored: nil))
                continue
            }
            let renamed = storedName != name || current.columns.map(\.name) != storedTable.columns.map(\.name)
            let (lossy, additive) = Self.compare(current, desiredTable)
            let notes = renameNotes[name] ?? []
            if !renamed, lossy.isEmpty, let (merged, newIndexes, dropped) = additive {
                if merged.sameShape(as: storedTable) {
                    items.append(
                        Item(type: type, table: storedTable, action: .same, lossy: [], renames: [], stored: storedTable)
                    )
                } else {
                    items.append(
                        Item(
                            type: type, table: merged,
                            action: .additive(
                                newIndexes: newIndexes, droppedIndexTrees: dropped.map { storedTable.indexTree($0) }),
                            lossy: [], renames: [], stored: storedTable))
                }
                continue
            }
            // Rewritten: each new column takes the stored column of the same (renamed) name when
            // its values fit, else the default.
            let sources = desiredTable.columns.map { c -> Int? in
                guard c.isStored, let j = current.columnIndex[c.name] else { return nil }
                let o = current.columns[j]
                guard o.type == c.type, o.collection == c.collection, o.targetTable == c.targetTable else { return nil }
                return j
            }
            if storedName != name { renamedAway.append(storedName) }
            items.append(
                Item(
                    type: type, table: desiredTable, action: .rewrite(old: storedTable, sources: sources),
                    lossy: lossy, renames: notes, stored: storedTable))
        }
    }

    /// The changes from the stored (renamed) table to the model's that lose or convert data, with
    /// RealmSwift's wording; and, when there are none and the change is additive, the merged table
    /// (stored columns first, index flags and LinkingObjects origins from the model, new columns
    /// at the end) with the columns gaining and losing an index tree.
    static func compare(_ stored: StoreTable, _ desired: StoreTable) -> ([String], (StoreTable, [Int], [Int])?) {
        var reasons: [String] = []
        var merged: [StoreColumn] = []
        var newIndexes: [Int] = []
        var dropped: [Int] = []
        var additive = true
        for (i, old) in stored.columns.enumerated() {
            guard let j = desired.columnIndex[old.name] else {
                // LinkingObjects are computed: dropping one loses nothing, but the rows change shape.
                if old.isStored { reasons.append("Property '\(desired.name).\(old.name)' has been removed.") }
                additive = false
                continue
            }
            let new = desired.columns[j]
            if new.type != old.type || new.collection != old.collection
                || (new.targetTable != old.targetTable && new.type != .linkingObjects)
            {
                if old.isStored || new.isStored {
                    reasons.append(
                        "Property '\(desired.name).\(old.name)' has been changed from '\(describe(old))' to '\(describe(new))'."
                    )
                }
                additive = false
            } else if new.isNullable != old.isNullable {
                reasons.append(
                    "Property '\(desired.name).\(old.name)' has been made \(new.isNullable ? "optional" : "required").")
            } else if new.isPrimaryKey != old.isPrimaryKey {
                reasons.append(
                    "Primary Key for class '\(desired.name)' has been \(new.isPrimaryKey ? "added" : "removed") ('\(old.name)')."
                )
            }
            var c = old
            c.isIndexed = new.isIndexed
            c.originProperty = new.originProperty
            c.targetTable = new.targetTable
            if c.hasIndexTree && !old.hasIndexTree { newIndexes.append(i) }
            if !c.hasIndexTree && old.hasIndexTree { dropped.append(i) }
            merged.append(c)
        }
        if stored.isEmbedded != desired.isEmbedded {
            reasons.append(
                "Class '\(desired.name)' has been changed \(desired.isEmbedded ? "to" : "from") an embedded object.")
        }
        for c in desired.columns where stored.columnIndex[c.name] == nil {
            if c.isPrimaryKey {
                reasons.append("Primary Key for class '\(desired.name)' has been added ('\(c.name)').")
            }
            if c.hasIndexTree { newIndexes.append(merged.count) }
            merged.append(c)
        }
        guard reasons.isEmpty, additive else { return (reasons, nil) }
        return (
            reasons,
            (StoreTable(name: desired.name, isEmbedded: desired.isEmbedded, columns: merged), newIndexes, dropped)
        )
    }

    static func describe(_ c: StoreColumn) -> String {
        let element = c.type == .link || c.type == .linkingObjects ? "\(c.type) \(c.targetTable ?? "")" : "\(c.type)"
        switch c.collection {
        case .none: return element
        case .list: return "list<\(element)>"
        case .set: return "set<\(element)>"
        case .map: return "map<\(element)>"
        }
    }
}
