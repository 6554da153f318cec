import ArgumentParser
import Foundation
import StrataCore
import StrataStorage

/// `strata verify FILE`: checks every page, object and index; exits with 1 on damage.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every page, object and index of a file.",
        discussion: """
            Checks the newest version: every page's checksum and structure and that each page is \
            used once or free; every object of every type decodes; each primary key and index \
            entry matches its object; every link names an existing object. Prints a report and \
            exits with status 1 when anything is damaged (0 when the file is intact). Opens the \
            file read-only: it changes nothing.
            """
    )

    @OptionGroup var file: FileArgument

    func run() throws {
        var problems: [String] = []
        var lines: [String] = []
        let store: StoreFile
        do {
            store = try file.open()
        } catch let e as ToolError {
            throw e
        } catch {
            print("\(file.file): DAMAGED\n- the file cannot be opened: \(error)")
            throw ExitCode(1)
        }
        do {
            let report = try store.db.verify()
            lines.append(
                "pages: \(report.pageCount) (\(report.treePages) in trees, \(report.areaPages > 0 ? "\(report.areaPages) of areas, " : "")\(report.freePages) free, \(report.bookkeepingPages) bookkeeping), version \(report.version.rawValue)"
            )
            if !report.leakedPages.isEmpty {
                problems.append(
                    "\(report.leakedPages.count) pages are neither used nor free (first: page \(report.leakedPages[0]))"
                )
            }
        } catch {
            problems.append("page check: \(error)")
        }
        let progress = Progress("Verifying")
        do {
            try store.read { txn, tables in
                let total = tables.reduce(UInt64(0)) { $0 + UInt64((try? txn.count($1)) ?? 0) }
                var done: UInt64 = 0
                for table in tables {
                    var objects = 0
                    do {
                        try verify(table, txn, tables, &problems, &objects) {
                            done += 1
                            progress.update(done, of: total)
                        }
                    } catch {
                        problems.append("\(table.name): objects cannot be read: \(error)")
                    }
                    lines.append("\(table.name): \(objects) objects checked")
                }
            }
        } catch {
            problems.append("schema: \(error)")
        }
        progress.finish()
        if problems.isEmpty {
            print("\(file.file): OK")
            print(lines.map { "  " + $0 }.joined(separator: "\n"))
            return
        }
        print("\(file.file): DAMAGED")
        print(lines.map { "  " + $0 }.joined(separator: "\n"))
        print(problems.map { "- " + $0 }.joined(separator: "\n"))
        throw ExitCode(1)
    }

    /// Reads every object of `table` and checks its primary key, index entries and links.
    func verify(
        _ table: StoreTable, _ txn: StoreTransaction, _ tables: [StoreTable], _ problems: inout [String],
        _ objects: inout Int, tick: () -> Void
    ) throws {
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        var reported = 0
        func problem(_ s: String) {
            reported += 1
            if reported <= 20 { problems.append("\(table.name): " + s) }
            if reported == 21 { problems.append("\(table.name): more problems not listed") }
        }
        var indexed = [Int: Int]()
        try txn.forEachRow(table) { row in
            objects += 1
            tick()
            let values = row.values()
            if let pk = table.primaryKeyColumn {
                let found = try? txn.objectKey(table, primaryKey: values[pk])
                if found != row.key {
                    problem(
                        "object \(row.key): its primary key \(JSONText.plainForm(values[pk])) leads to \(found.map { "object \($0)" } ?? "no object")"
                    )
                }
            }
            for (c, column) in table.columns.enumerated() {
                if column.hasIndexTree {
                    indexed[c, default: 0] += 1
                    let keys = (try? txn.indexLookup(table, column: c, equals: values[c])) ?? []
                    if !keys.contains(row.key) {
                        problem("object \(row.key): the index of \(column.name) has no entry for it")
                    }
                }
                guard column.type == .link, let target = column.targetTable.flatMap({ byName[$0] }) else { continue }
                for k in Self.links(values[c]) where (try? txn.exists(target, key: k)) != true {
                    problem(
                        "object \(row.key): \(column.name) links to \(target.name) object \(k), which does not exist")
                }
            }
            return true
        }
        // An index with more entries than objects holds entries of objects that no longer exist.
        for (c, count) in indexed {
            let entries = try txn.count(tree: table.indexTree(c))
            if entries != count {
                problem("the index of \(table.columns[c].name) has \(entries) entries for \(count) objects")
            }
        }
        if table.primaryKeyColumn != nil, !table.primaryKeyIsObjectKey {
            let entries = try txn.count(tree: table.primaryKeyTree)
            if entries != objects { problem("the primary-key index has \(entries) entries for \(objects) objects") }
        }
    }

    static func links(_ value: StoreValue) -> [Int64] {
        switch value {
        case .link(let k): return [k]
        case .list(let l): return l.flatMap(links)
        case .map(let m): return m.values.flatMap(links)
        default: return []
        }
    }
}
