import Foundation
import StrataCore

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
            case alreadyInWriteTransaction, notInWriteTransaction
            case primaryKeyExists, missingValue, invalidValue, objectManagedByAnotherRealm, invalidatedObject
            case wrongThread, frozen, invalidQuery
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
                case .notADatabase, .byteOrderMismatch, .corruptPage, .truncated:
                    self.init(.fileAccess, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .unsupportedFormatVersion:
                    self.init(.fileFormatUpgradeRequired, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .readOnly:
                    self.init(.readOnly, "\(e)", path: path)
                case .lockFileInvalid:
                    self.init(.incompatibleLockFile, "\(e)", path: path)
                case .system(let s) where s.errno == EACCES || s.errno == EPERM:
                    self.init(.filePermissionDenied, "Unable to open a realm at path '\(path)': permission denied. Check the file's and directory's permissions. (\(e))", path: path)
                case .system(let s) where s.errno == ENOENT:
                    self.init(.fileNotFound, "Unable to open a realm at path '\(path)': \(e)", path: path)
                default:
                    self.init(.fail, "\(e)", path: path)
                }
            } else if let e = error as? CoreError {
                self.init(.fail, e.description, path: path)
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
