import Foundation
internal import StrataCore

extension Realm {
    /// Opens the realm at `fileURL` with the default configuration's other settings, as
    /// RealmSwift's `Realm(fileURL:)`.
    ///
    /// ```swift
    /// let realm = try Realm(fileURL: URL(fileURLWithPath: "/tmp/dogs.realm"))
    /// ```
    ///
    /// On a thread that has this file open already (by any initializer), returns that realm.
    /// - Throws: `Realm.Error` as `Realm(configuration:)` does.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// Whether the realm holds no objects of any type (in the version it shows, including the
    /// changes of a write in progress).
    public var isEmpty: Bool {
        guard checkThread() else { return true }
        let txn = current()
        do {
            for table in txn.tables.values where try txn.count(table) > 0 { return false }
            return true
        } catch {
            return readFailed(error, "cannot count the objects of '\(file.path)': \(error)", fallback: true)
        }
    }
}
