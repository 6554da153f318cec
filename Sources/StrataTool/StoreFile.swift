import Foundation
import StrataCore
import StrataStorage

/// A Strata file opened by a command.
struct StoreFile {
    let path: String
    let db: Database

    /// Opens the existing file at `path`, read-only unless `writable`.
    /// - Throws: `ToolError` for a missing file; the storage error (which says what is wrong
    ///   with the file) otherwise.
    static func open(_ path: String, writable: Bool = false) throws -> StoreFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ToolError("\(path): no such file. Give the path of a Strata file.")
        }
        var options = Database.Options()
        options.readOnly = !writable
        options.create = false
        return StoreFile(path: path, db: try Database(path: path, options: options))
    }

    /// Runs `body` with a read transaction of the newest version and the stored tables.
    func read<T>(_ body: (StoreTransaction, [StoreTable]) throws -> T) throws -> T {
        let read = try db.beginRead()
        defer { read.end() }
        let txn = StoreTransaction(read: read)
        let tables = try txn.storedTables()
        txn.tables = tables
        return try body(txn, tables.values.sorted { $0.name < $1.name })
    }

    /// The table named `name`, or an error listing the tables there are.
    static func table(_ name: String, in tables: [StoreTable]) throws -> StoreTable {
        guard let t = tables.first(where: { $0.name == name }) else {
            let names = tables.map(\.name).joined(separator: ", ")
            throw ToolError("No type named '\(name)' in the file. Its types: \(names.isEmpty ? "none" : names).")
        }
        return t
    }
}
