import StrataPOSIX

/// Errors of the storage engine.
///
/// Each case names the file (and the page, where one is involved) and its description says what
/// to do next. User data (keys, values) never appears in descriptions.
///
/// | case | when |
/// |---|---|
/// | `system` | an operating-system call failed (disk full, I/O error, permissions) |
/// | `notADatabase` | the file is empty, foreign (e.g. a SQLite file) or not a Strata file |
/// | `byteOrderMismatch` | the file was written on a machine of the other byte order |
/// | `unsupportedFormatVersion` | the file's format version is not one this build reads |
/// | `corruptPage` | a page failed its checksum or structural check |
/// | `damagedCommit` | the newest commit was acknowledged as durable, but its pages no longer verify |
/// | `truncated` | the file is shorter than its meta record says |
/// | `invalidPageSize` | a page size that is not a power of two in 4096...32768 |
/// | `keyTooLarge` / `valueTooLarge` | a key or value exceeds the engine's limits |
/// | `readOnly` | a write was attempted on a database opened read-only |
/// | `transactionEnded` | a transaction was used after commit or abort |
/// | `treeNotFound` | a named tree does not exist |
/// | `readersFull` | every reader slot of the lock file is taken |
/// | `needsReopen` | an earlier commit, sync or stale-record erase failed at the durability step; the handle refuses writes |
/// | `lockFileInvalid` | the lock file beside the database is not a Strata lock file |
/// | `databaseClosed` | a transaction was begun on a closed handle |
/// | `fileExists` | a copy's destination already exists |
/// | `inUse` | the files cannot be deleted while a handle (in any process) has the database open |
///
/// ## Concurrency
/// A value type; `Sendable`.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    case system(SystemError)
    case notADatabase(path: String, reason: String)
    case byteOrderMismatch(path: String)
    case unsupportedFormatVersion(path: String, found: UInt32, supported: UInt32)
    case corruptPage(path: String, page: UInt32, reason: String)
    case truncated(path: String, expectedBytes: Int64, actualBytes: Int64)
    /// The newest commit (`version`) was acknowledged as durable, but `page`, which it wrote, no
    /// longer verifies: the file was damaged after the commit. Opening changed nothing;
    /// `Database.Options.openLastIntactVersion` opens `intactVersion` instead.
    case damagedCommit(path: String, version: UInt64, page: UInt32, reason: String, intactVersion: UInt64)
    case invalidPageSize(Int)
    case keyTooLarge(size: Int, limit: Int)
    case valueTooLarge(size: Int, limit: Int)
    case readOnly(path: String)
    case transactionEnded
    case treeNotFound(name: String)
    case readersFull(path: String, slots: Int)
    case needsReopen(path: String, cause: String)
    case lockFileInvalid(path: String, reason: String)
    case databaseClosed(path: String)
    case fileExists(path: String)
    case inUse(path: String)
    /// The file is encrypted and was opened without a key.
    case encryptionKeyRequired(path: String)
    /// A key was given for a file that is not encrypted.
    case fileNotEncrypted(path: String)
    /// The key given is not the key the file was encrypted with.
    case wrongEncryptionKey(path: String)
    /// An encryption key of a length other than 64 bytes.
    case invalidEncryptionKeyLength(Int)
    /// A page of an encrypted file did not open: changed since it was written, moved from another
    /// place or another file, or sealed under another key. Never read as data.
    case pageAuthenticationFailed(path: String, page: UInt32, reason: String)

    public var description: String {
        switch self {
        case .system(let e):
            return e.description
        case .notADatabase(let path, let reason):
            return
                "\(path) is not a Strata database: \(reason). Check the path, or delete the file if it should be created anew."
        case .byteOrderMismatch(let path):
            return
                "\(path) was written on a machine of the other byte order; Strata files are little-endian. Open it on a little-endian machine or export its data there."
        case .unsupportedFormatVersion(let path, let found, let supported):
            let reads =
                oldestReadableFormatVersion == supported
                ? "format version \(supported)" : "format versions \(oldestReadableFormatVersion) to \(supported)"
            return
                "\(path) has format version \(found), but this build of Strata reads \(reads). Open it with a Strata release that supports version \(found)."
        case .corruptPage(let path, let page, let reason):
            return
                "\(path) is corrupt at page \(page): \(reason). Restore the file from a backup; Database.verify() lists the first damaged page of the newest version."
        case .damagedCommit(let path, let version, let page, let reason, let intact):
            return
                "\(path) is damaged: the newest commit (version \(version)) was made durable, but its page \(page) no longer verifies (\(reason)). Nothing was changed. Restore the file from a backup, or open it with openLastIntactVersion to open version \(intact) and lose that commit."
        case .truncated(let path, let expected, let actual):
            return
                "\(path) is truncated: its meta record needs \(expected) bytes but the file has \(actual). The file was cut short (a partial copy?); restore it from a backup."
        case .invalidPageSize(let size):
            return
                "Page size \(size) is not supported: use a power of two from \(minimumPageSize) to \(maximumPageSize)."
        case .keyTooLarge(let size, let limit):
            return
                "A key of \(size) bytes exceeds the limit of \(limit) bytes for this page size; use a shorter key or a larger page size."
        case .valueTooLarge(let size, let limit):
            return "A value of \(size) bytes exceeds the limit of \(limit) bytes; split it into several values."
        case .readOnly(let path):
            return "\(path) was opened read-only; open it read-write to change it."
        case .transactionEnded:
            return "The transaction was already committed or aborted; begin a new one."
        case .treeNotFound(let name):
            return "No tree named '\(name)' exists in this version; create it in a write transaction first."
        case .readersFull(let path, let slots):
            return
                "All \(slots) reader slots of \(path).lock are in use by live processes; close some database handles or open with a larger maxReaders."
        case .needsReopen(let path, let cause):
            return
                "A commit to \(path) failed while making it durable (\(cause)); this handle refuses further writes. Close and reopen the database: it will open at the last durable version."
        case .databaseClosed(let path):
            return "The database handle for \(path) was closed; open it again to read or write."
        case .fileExists(let path):
            return
                "\(path) already exists; a copy never replaces a file. Choose another path, or delete the file first."
        case .inUse(let path):
            return "\(path) is open (in this process or another); close every handle to it before deleting its files."
        case .encryptionKeyRequired(let path):
            return
                "\(path) is encrypted; open it with the 64-byte key it was encrypted with (Options.encryptionKey, or Realm.Configuration.encryptionKey)."
        case .fileNotEncrypted(let path):
            return
                "\(path) is not encrypted, but a key was given; open it without a key, or write an encrypted copy of it (writeCopy with an encryption key)."
        case .wrongEncryptionKey(let path):
            return
                "\(path) is encrypted with another key: the key given does not pass the file's key check. Open it with the key it was encrypted with."
        case .invalidEncryptionKeyLength(let length):
            return "An encryption key must be 64 bytes long, but the key given has \(length) bytes."
        case .pageAuthenticationFailed(let path, let page, let reason):
            return
                "\(path) is damaged at page \(page): \(reason). Nothing of that page was read. Restore the file from a backup; Database.verify() lists the first damaged page."
        case .lockFileInvalid(let path, let reason):
            return
                "\(path) is not a valid Strata lock file (\(reason)). Make sure no process has the database open, then delete the lock file; it is recreated on open."
        }
    }
}

extension StorageError {
    /// Runs `body`, turning a `SystemError` into `StorageError.system`.
    @inline(__always)
    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as SystemError { throw StorageError.system(e) }
    }
}
