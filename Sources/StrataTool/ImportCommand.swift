import ArgumentParser
import Foundation
import StrataCore
import StrataStorage

/// `strata import FILE --type T < objects.jsonl`: adds objects from JSON lines.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add objects of one type from JSON lines on standard input.",
        discussion: """
            Each line is a JSON object of property values, in the form `strata dump` prints \
            (`_type` and `_key` are ignored; a missing property gets its default). All lines are \
            added in one transaction: a bad line (an unknown property, a value of the wrong type, \
            a duplicate primary key, a link to a missing object) adds nothing and names the line.
            """
    )

    @OptionGroup var file: FileArgument

    @Option(name: .customLong("type"), help: "The type of the objects.")
    var type: String

    func run() throws {
        let store = try file.open(writable: true)
        let progress = Progress("Importing")
        defer { progress.finish() }
        let txn = StoreTransaction(write: try store.db.beginWrite())
        var added = 0
        do {
            let tables = try txn.storedTables()
            txn.tables = tables
            let table = try StoreFile.table(type, in: Array(tables.values))
            if table.isEmbedded {
                throw ToolError(
                    "\(type) is an embedded type: its objects exist only inside their owners, so they cannot be imported on their own."
                )
            }
            let conversion = JSONConversion(table: table)
            var lineNumber = 0
            while let line = readLine(strippingNewline: true) {
                lineNumber += 1
                if line.allSatisfy(\.isWhitespace) { continue }
                do {
                    guard case .object(let fields) = try JSONValue.parse(line) else {
                        throw ToolError("it is not a JSON object")
                    }
                    if case .string(let t)? = fields["_type"], t != type {
                        throw ToolError("its _type is \(t), not \(type)")
                    }
                    let known = Set(table.columns.map(\.name))
                    if let unknown = fields.keys.filter({ !$0.hasPrefix("_") || known.contains($0) }).first(where: {
                        !known.contains($0)
                    }) {
                        throw ToolError(
                            "\(type) has no property '\(unknown)' (its properties: \(table.columns.filter(\.isStored).map(\.name).joined(separator: ", ")))"
                        )
                    }
                    var values: [StoreValue] = []
                    for c in table.columns {
                        guard c.isStored else { values.append(.null); continue }
                        let v = try conversion.value(fields[c.name], c)
                        try checkLinks(v, c, txn, tables)
                        values.append(v)
                    }
                    try txn.insert(into: table, values: values)
                    added += 1
                    progress.update(UInt64(added), of: 0)
                } catch let e as DecodingError {
                    throw ToolError("Line \(lineNumber) is not valid JSON (\(Self.describe(e))). Nothing was imported.")
                } catch {
                    throw ToolError("Line \(lineNumber): \(error). Nothing was imported.")
                }
            }
            try txn.commit()
        } catch {
            txn.write?.abort()
            throw error
        }
        progress.finish()
        print("Imported \(added) \(type) objects into \(file.file).")
    }

    /// Throws unless every link in `value` names an existing object of the column's target type.
    func checkLinks(
        _ value: StoreValue, _ column: StoreColumn, _ txn: StoreTransaction, _ tables: [String: StoreTable]
    ) throws {
        guard column.type == .link, let targetName = column.targetTable, let target = tables[targetName] else { return }
        var keys: [Int64] = []
        switch value {
        case .link(let k): keys = [k]
        case .list(let l): keys = l.compactMap { if case .link(let k) = $0 { return k } else { return nil } }
        case .map(let m): keys = m.values.compactMap { if case .link(let k) = $0 { return k } else { return nil } }
        default: break
        }
        for k in keys where try !txn.exists(target, key: k) {
            throw ToolError("\(column.name) links to \(targetName) object \(k), which does not exist")
        }
    }

    static func describe(_ e: DecodingError) -> String {
        switch e {
        case .dataCorrupted(let c): return c.underlyingError.map { "\($0)" } ?? c.debugDescription
        default: return "\(e)"
        }
    }
}
