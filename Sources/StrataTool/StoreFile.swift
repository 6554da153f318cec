import Foundation
import StrataCore
import StrataStorage

/// A Strata file opened by a command.
struct StoreFile {
    let path: String
    let db: Database

    /// Opens the existing file at `path`, read-only unless `writable`, with `encryptionKey` for
    /// an encrypted file.
    /// - Throws: `ToolError` for a missing file, or an encrypted file opened without a key; the
    ///   storage error (which says what is wrong with the file or the key) otherwise.
    static func open(_ path: String, writable: Bool = false, encryptionKey: [UInt8]? = nil) throws -> StoreFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ToolError("\(path): no such file. Give the path of a Strata file.")
        }
        var options = Database.Options()
        options.readOnly = !writable
        options.create = false
        options.encryptionKey = encryptionKey
        do {
            return StoreFile(path: path, db: try Database(path: path, options: options))
        } catch StorageError.encryptionKeyRequired {
            throw ToolError(
                "\(path) is encrypted. Give its 64-byte key with --key-file KEYFILE, or as 128 hexadecimal digits in \(EncryptionKeyInput.environmentVariable)."
            )
        } catch let error as StorageError {
            // A key that does not fit the file is the caller's mistake, not damage.
            switch error {
            case .wrongEncryptionKey, .fileNotEncrypted: throw ToolError(error.description)
            default: throw error
            }
        }
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
