import ArgumentParser
import Foundation
import StrataCore

/// `strata schema FILE`: the types and properties stored in the file.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the types and properties stored in a file.",
        discussion: "Reads the schema the file stores, so it needs none of the app's models."
    )

    @OptionGroup var file: FileArgument

    func run() throws {
        let store = try file.open()
        let lines = try store.read { txn, tables -> [String] in
            var out = [
                "\(file.file): format version \(store.db.formatVersion), page size \(store.db.pageSize) bytes, schema version \(try Self.schemaVersion(txn).map(String.init) ?? "none")"
            ]
            for t in tables {
                out.append("")
                out.append("\(t.name)\(t.isEmbedded ? " (embedded)" : ""): \(try txn.count(t)) objects")
                for c in t.columns { out.append("  " + Self.describe(c)) }
            }
            return out
        }
        print(lines.joined(separator: "\n"))
    }

    /// The schema version a realm stored, if any.
    static func schemaVersion(_ txn: StoreTransaction) throws -> UInt64? {
        try Array("@schemaVersion".utf8).withUnsafeBytes { k in
            try txn.get(k, tree: StoreTransaction.counterTree).flatMap { v in
                v.count == 8 ? UInt64(littleEndian: v.loadUnaligned(as: UInt64.self)) : nil
            }
        }
    }

    /// One property: `name: type` with its collection, optionality and attributes.
    static func describe(_ c: StoreColumn) -> String {
        var type = c.type == .link ? (c.targetTable ?? "?") : "\(c.type)"
        if c.type == .linkingObjects {
            return "\(c.name): LinkingObjects<\(c.targetTable ?? "?")>(\(c.originProperty ?? "?"))"
        }
        if c.isNullable && c.collection == .none || c.isNullable && c.type != .link { type += "?" }
        switch c.collection {
        case .list: type = "List<\(type)>"
        case .set: type = "MutableSet<\(type)>"
        case .map: type = "Map<String, \(type)>"
        case .none: break
        }
        var attributes: [String] = []
        if c.isPrimaryKey { attributes.append("primary key") }
        if c.isIndexed && !c.isPrimaryKey { attributes.append("indexed") }
        return "\(c.name): \(type)" + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]")
    }
}
