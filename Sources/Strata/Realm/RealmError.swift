import Foundation
internal import StrataCore
internal import StrataStorage

extension Realm {
    /// An error of a realm operation: a code to match on and a message that says what was wrong
    /// and what to do.
    ///
    /// ```swift
    /// do { try realm.write { realm.add(dog) } }
    /// catch let error as Realm.Error where error.code == .primaryKeyExists { ... }
    /// ```
    ///
    /// ## Concurrency
    /// A plain value; `Sendable`.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
        /// What kind of failure.
        public enum Code: Sendable, Equatable {
            case fail, fileAccess, filePermissionDenied, fileExists, fileNotFound, incompatibleLockFile
            case fileFormatUpgradeRequired, schemaMismatch, readOnly
            /// The file is not a Strata file, or it is damaged (a page failed its checks, the file
            /// is truncated, or its newest commit was damaged after it was made durable).
            case invalidDatabase
            /// The disk (or the file system's quota) is full.
            case outOfDiskSpace
            case alreadyInWriteTransaction, notInWriteTransaction
            case primaryKeyExists, missingValue, invalidValue, objectManagedByAnotherRealm, invalidatedObject
            case wrongThread, frozen, invalidQuery
            /// The file is open (in this process or another) and the operation needs it closed.
            case alreadyOpen
        }

        /// The kind of failure.
        public let code: Code
        /// What went wrong and what to do.
        public let message: String
        /// The file, when one is involved.
        public let path: String?

        /// An error with `code` and `message`.
        public init(_ code: Code, _ message: String, path: String? = nil) {
            self.code = code
            self.message = message
            self.path = path
        }

        init(storage error: Swift.Error, path: String) {
            if let e = error as? StorageError {
                switch e {
                case .notADatabase, .byteOrderMismatch:
                    self.init(.invalidDatabase, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .corruptPage, .truncated:
                    self.init(
                        .invalidDatabase,
                        "The realm file at '\(path)' is damaged: \(e) Nothing was changed; `strata verify` reports every damaged page.",
                        path: path)
                case .damagedCommit:
                    self.init(
                        .invalidDatabase,
                        "The realm file at '\(path)' is damaged: \(e) (For a realm: set Realm.Configuration.openLastIntactVersion.)",
                        path: path)
                case .system(let s) where s.errno == ENOSPC || s.errno == EDQUOT:
                    self.init(
                        .outOfDiskSpace,
                        "The disk holding '\(path)' is full (\(e)). Free some space and try again; nothing committed was lost.",
                        path: path)
                case .unsupportedFormatVersion:
                    self.init(.fileFormatUpgradeRequired, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .readOnly:
                    self.init(.readOnly, "\(e)", path: path)
                case .fileExists:
                    self.init(.fileExists, "\(e)", path: path)
                case .inUse:
                    self.init(.alreadyOpen, "\(e)", path: path)
                case .lockFileInvalid:
                    self.init(.incompatibleLockFile, "\(e)", path: path)
                case .system(let s) where s.errno == EACCES || s.errno == EPERM:
                    self.init(
                        .filePermissionDenied,
                        "Unable to open a realm at path '\(path)': permission denied. Check the file's and directory's permissions. (\(e))",
                        path: path)
                case .system(let s) where s.errno == ENOENT:
                    self.init(.fileNotFound, "Unable to open a realm at path '\(path)': \(e)", path: path)
                default:
                    self.init(.fail, "\(e)", path: path)
                }
            } else if let e = error as? StoreError {
                if Realm.isDamage(e) {
                    self.init(
                        .invalidDatabase,
                        "The realm file at '\(path)' is damaged: \(e.description). Nothing was changed; `strata verify` reports every damaged page.",
                        path: path)
                } else {
                    self.init(.fail, e.description, path: path)
                }
            } else if let e = error as? Realm.Error {
                self = e
            } else {
                self.init(.fail, "\(error)", path: path)
            }
        }

        /// The message.
        public var description: String { message }
        /// The message (for `localizedDescription`).
        public var errorDescription: String? { message }

        /// Errors are equal when code and message are.
        public static func == (a: Error, b: Error) -> Bool { a.code == b.code && a.message == b.message }
    }
}

/// Matches any `Realm.Error` with this code: `catch Realm.Error.Code.fileNotFound`.
public func ~= (code: Realm.Error.Code, error: Swift.Error) -> Bool {
    (error as? Realm.Error)?.code == code
}
