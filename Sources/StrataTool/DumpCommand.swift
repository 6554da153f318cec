import ArgumentParser
import Foundation
import StrataCore

/// `strata dump FILE`: objects as JSON lines.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print objects as JSON lines.",
        discussion: """
            One line per object: {"_type": TYPE, "_key": KEY, PROPERTY: VALUE, ...}, in type order \
            and then key order. A link is the linked object's _key; dates are ISO 8601 strings; \
            binary data is base64. `strata import` reads the same form.
            """
    )

    @OptionGroup var file: FileArgument

    @Option(name: .customLong("type"), help: "Only objects of this type.")
    var type: String?

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp(
            "Only objects matching this query (Realm's query language; needs --type).", valueName: "query"))
    var query: String?

    @Option(help: "Print at most this many objects.")
    var limit: Int?

    func validate() throws {
        if query != nil && type == nil {
            throw ValidationError("--where needs --type: a query is about one type's properties.")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
    }

    func run() throws {
        let store = try file.open()
        let progress = Progress("Dumping")
        defer { progress.finish() }
        var out = OutputBuffer()
        defer { out.flush() }
        try store.read { txn, tables in
            let selected = try type.map { [try StoreFile.table($0, in: tables)] } ?? tables
            let total = try selected.reduce(UInt64(0)) { $0 + UInt64(try txn.count($1)) }
            var printed = 0
            for table in selected {
                if let limit, printed >= limit { break }
                let columns = table.columns.enumerated().filter { $0.element.isStored }
                let body: (RowReader) throws -> Bool = { row in
                    if let limit, printed >= limit { return false }
                    var line = "{\"_type\":\(JSONText.string(table.name)),\"_key\":\(row.key)"
                    for (i, c) in columns {
                        line += "," + JSONText.string(c.name) + ":" + JSONText.encode(row.value(i), c)
                    }
                    out.append(line + "}\n")
                    printed += 1
                    progress.update(UInt64(printed), of: total)
                    return true
                }
                if let query {
                    let q: StoreQuery
                    do { q = try StoreQuery(query) } catch {
                        throw ToolError("The query '\(query)' is not valid: \(error)")
                    }
                    do {
                        try q.forEachMatch(in: txn, table: table) { row in
                            if try !body(row) { throw LimitReached() }
                        }
                    } catch is LimitReached {
                    } catch let e as StoreQueryError {
                        throw ToolError("The query '\(query)' cannot run on \(table.name): \(e)")
                    }
                } else {
                    try txn.forEachRow(table, body)
                }
            }
        }
    }
}
