import Foundation
internal import StrataCore
internal import StrataStorage

extension RealmFile {
    /// Runs `body` with a read transaction of the newest version of the file at `path`: through
    /// the handle a realm of this process has open, else through a read-only handle of its own,
    /// closed afterwards (and never shared with realms).
    static func withReadTransaction<T>(
        path: String, encryptionKey: [UInt8]? = nil, _ body: (StoreTransaction) throws -> T
    ) throws -> T {
        if let file = openFile(path), file.encryptionKey == encryptionKey {
            let read = try file.db.beginRead()
            defer { read.end() }
            return try body(StoreTransaction(read: read))
        }
        var options = Database.Options()
        options.readOnly = true
        options.create = false
        options.encryptionKey = encryptionKey
        let db = try Database(path: path, options: options)
        defer { db.close() }
        let read = try db.beginRead()
        defer { read.end() }
        return try body(StoreTransaction(read: read))
    }
}
