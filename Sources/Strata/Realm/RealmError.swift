import Foundation
internal import StrataCore
internal import StrataStorage

extension Realm {
    /// An error of a realm operation: an `NSError` in the domain `"io.realm"` whose code is
    /// RealmSwift's, with a message that says what was wrong and what to do.
    ///
    /// ```swift
    /// do { try realm.write { realm.add(dog) } }
    /// catch Realm.Error.primaryKeyExists { ... }                     // match a code
    /// catch let error as Realm.Error where error.code == .fileNotFound { ... }
    /// catch let error as NSError { print(error.domain, error.code, error.localizedDescription) }
    /// ```
    ///
    /// It is an `NSError` subclass so that `catch let error as NSError`, the handler RealmSwift's
    /// documentation shows, catches it on Linux too (where Swift errors do not bridge to
    /// `NSError`). `code` is therefore `NSError`'s `Int` (RealmSwift's raw value); compare it with
    /// a `Code` (`error.code == .fileNotFound`), or read the typed `realmCode`.
    ///
    /// ## Concurrency
    /// Immutable; `Sendable`.
    public final class Error: NSError, @unchecked Sendable {
        /// What kind of failure. The raw values below 1000 are RealmSwift's (`RLMError`); the
        /// others are failures RealmSwift reports by exception and Strata reports as errors.
        public enum Code: Int, Sendable, Equatable, CaseIterable {
            /// A failure with no more specific code (an I/O error, an unsupported option).
            case fail = 1
            /// The path leads through something that is not a directory, or a file cannot be read.
            case fileAccess = 2
            /// The file or its directory may not be opened or created.
            case filePermissionDenied = 3
            /// A copy was to be written where a file exists.
            case fileExists = 4
            /// A read-only open of a missing file, or a missing directory.
            case fileNotFound = 5
            /// The file's format version is not the one this build reads.
            case fileFormatUpgradeRequired = 6
            /// The lock file beside the realm is damaged or of another format.
            case incompatibleLockFile = 8
            /// Not enough address space to map the file.
            case addressSpaceExhausted = 9
            /// The models differ from the file's schema and a migration is needed.
            case schemaMismatch = 10
            /// The file is open (in this process or another) and the operation needs it closed.
            case alreadyOpen = 12
            /// An argument was not valid (for example a string that is not an ObjectId).
            case invalidInput = 13
            /// The disk (or the file system's quota) is full.
            case outOfDiskSpace = 14
            /// The file is not a Strata file, or it is damaged (a page failed its checks, the file
            /// is truncated, or its newest commit was damaged after it was made durable).
            case invalidDatabase = 20
            /// A write (or a schema change) on a read-only realm.
            case readOnly = 1001
            /// A write transaction was begun inside one.
            case alreadyInWriteTransaction = 1002
            /// A commit (or a managed write) outside a write transaction.
            case notInWriteTransaction = 1003
            /// `add`/`create` with an existing primary key and `update: .error`.
            case primaryKeyExists = 1004
            /// A required value is missing.
            case missingValue = 1005
            /// A value of the wrong type or shape.
            case invalidValue = 1006
            /// `add` of an object that another realm manages.
            case objectManagedByAnotherRealm = 1007
            /// Use of a deleted or invalidated object.
            case invalidatedObject = 1008
            /// A realm used outside its thread, queue or actor.
            case wrongThread = 1009
            /// A write on a frozen realm or object.
            case frozen = 1010
            /// A query that does not parse or does not fit the model.
            case invalidQuery = 1011
        }

        /// The error domain of every `Realm.Error`, RealmSwift's.
        public static let errorDomain = "io.realm"

        /// The kind of failure, typed (`code` is the same as an `Int`).
        public let realmCode: Code
        /// What went wrong and what to do.
        public let message: String
        /// The file, when one is involved.
        public let path: String?

        /// The file, when one is involved (RealmSwift's `fileURL`).
        public var fileURL: URL? { path.map { URL(fileURLWithPath: $0) } }

        /// An error with `code` and `message`, about the file at `path` if given.
        public init(_ code: Code, _ message: String, path: String? = nil) {
            self.realmCode = code
            self.message = message
            self.path = path
            var info: [String: Any] = [NSLocalizedDescriptionKey: message, "Error Code": code.rawValue]
            if let path { info[NSFilePathErrorKey] = path }
            super.init(domain: Self.errorDomain, code: code.rawValue, userInfo: info)
        }

        /// An error with `code` and the message `userInfo[NSLocalizedDescriptionKey]` (or one
        /// naming the code), as RealmSwift's `Realm.Error(_:userInfo:)`:
        /// `throw Realm.Error(.fail)`.
        public convenience init(_ code: Code, userInfo: [String: Any] = [:]) {
            let message =
                userInfo[NSLocalizedDescriptionKey] as? String ?? "The operation failed (Realm.Error.\(code))."
            self.init(code, message, path: userInfo[NSFilePathErrorKey] as? String)
        }

        /// Not supported: a `Realm.Error` is not archived.
        public required init?(coder: NSCoder) {
            return nil
        }

        convenience init(storage error: Swift.Error, path: String) {
            if let e = error as? StorageError {
                switch e {
                case .notADatabase, .byteOrderMismatch:
                    self.init(.invalidDatabase, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .encryptionKeyRequired, .fileNotEncrypted, .wrongEncryptionKey:
                    self.init(.invalidDatabase, "Unable to open a realm at path '\(path)': \(e)", path: path)
                case .corruptPage, .truncated, .pageAuthenticationFailed:
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
                self.init(e.realmCode, e.message, path: e.path)
            } else {
                self.init(.fail, "\(error)", path: path)
            }
        }

        /// The message.
        public override var description: String { message }
        /// The message (for `localizedDescription`).
        public var errorDescription: String? { message }

        /// Errors are equal when code and message are.
        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? Realm.Error else { return false }
            return realmCode == other.realmCode && message == other.message
        }

        /// Hashes code and message, as `isEqual` compares them.
        public override var hash: Int {
            var hasher = Hasher()
            hasher.combine(realmCode)
            hasher.combine(message)
            return hasher.finalize()
        }

        /// The code `fail`, for `catch Realm.Error.fail`.
        public static let fail = Code.fail
        /// The code `fileAccess`, for `catch Realm.Error.fileAccess`.
        public static let fileAccess = Code.fileAccess
        /// The code `filePermissionDenied`, for `catch Realm.Error.filePermissionDenied`.
        public static let filePermissionDenied = Code.filePermissionDenied
        /// The code `fileExists`, for `catch Realm.Error.fileExists`.
        public static let fileExists = Code.fileExists
        /// The code `fileNotFound`, for `catch Realm.Error.fileNotFound`.
        public static let fileNotFound = Code.fileNotFound
        /// The code `fileFormatUpgradeRequired`, for `catch Realm.Error.fileFormatUpgradeRequired`.
        public static let fileFormatUpgradeRequired = Code.fileFormatUpgradeRequired
        /// The code `incompatibleLockFile`, for `catch Realm.Error.incompatibleLockFile`.
        public static let incompatibleLockFile = Code.incompatibleLockFile
        /// The code `addressSpaceExhausted`, for `catch Realm.Error.addressSpaceExhausted`.
        public static let addressSpaceExhausted = Code.addressSpaceExhausted
        /// The code `schemaMismatch`, for `catch Realm.Error.schemaMismatch`.
        public static let schemaMismatch = Code.schemaMismatch
        /// The code `alreadyOpen`, for `catch Realm.Error.alreadyOpen`.
        public static let alreadyOpen = Code.alreadyOpen
        /// The code `invalidInput`, for `catch Realm.Error.invalidInput`.
        public static let invalidInput = Code.invalidInput
        /// The code `outOfDiskSpace`, for `catch Realm.Error.outOfDiskSpace`.
        public static let outOfDiskSpace = Code.outOfDiskSpace
        /// The code `invalidDatabase`, for `catch Realm.Error.invalidDatabase`.
        public static let invalidDatabase = Code.invalidDatabase
        /// The code `readOnly`, for `catch Realm.Error.readOnly`.
        public static let readOnly = Code.readOnly
        /// The code `alreadyInWriteTransaction`, for `catch Realm.Error.alreadyInWriteTransaction`.
        public static let alreadyInWriteTransaction = Code.alreadyInWriteTransaction
        /// The code `notInWriteTransaction`, for `catch Realm.Error.notInWriteTransaction`.
        public static let notInWriteTransaction = Code.notInWriteTransaction
        /// The code `primaryKeyExists`, for `catch Realm.Error.primaryKeyExists`.
        public static let primaryKeyExists = Code.primaryKeyExists
        /// The code `missingValue`, for `catch Realm.Error.missingValue`.
        public static let missingValue = Code.missingValue
        /// The code `invalidValue`, for `catch Realm.Error.invalidValue`.
        public static let invalidValue = Code.invalidValue
        /// The code `objectManagedByAnotherRealm`, for `catch Realm.Error.objectManagedByAnotherRealm`.
        public static let objectManagedByAnotherRealm = Code.objectManagedByAnotherRealm
        /// The code `invalidatedObject`, for `catch Realm.Error.invalidatedObject`.
        public static let invalidatedObject = Code.invalidatedObject
        /// The code `wrongThread`, for `catch Realm.Error.wrongThread`.
        public static let wrongThread = Code.wrongThread
        /// The code `frozen`, for `catch Realm.Error.frozen`.
        public static let frozen = Code.frozen
        /// The code `invalidQuery`, for `catch Realm.Error.invalidQuery`.
        public static let invalidQuery = Code.invalidQuery
    }
}

/// Matches any `Realm.Error` with this code: `catch Realm.Error.fileNotFound`.
public func ~= (code: Realm.Error.Code, error: Swift.Error) -> Bool {
    (error as? Realm.Error)?.realmCode == code
}

/// Matches an `NSError` code against a `Realm.Error.Code` in a `switch`:
/// `switch error.code { case .fileNotFound: ... }`.
public func ~= (pattern: Realm.Error.Code, code: Int) -> Bool { code == pattern.rawValue }

/// Whether an `NSError` code (`error.code`) is this `Realm.Error.Code`: `error.code == .fileNotFound`.
public func == (lhs: Int, rhs: Realm.Error.Code) -> Bool { lhs == rhs.rawValue }
/// Whether an `NSError` code is not this `Realm.Error.Code`.
public func != (lhs: Int, rhs: Realm.Error.Code) -> Bool { lhs != rhs.rawValue }
/// Whether an optional `NSError` code (`(error as? Realm.Error)?.code`) is this code.
public func == (lhs: Int?, rhs: Realm.Error.Code) -> Bool { lhs == rhs.rawValue }
/// Whether an optional `NSError` code is not this code.
public func != (lhs: Int?, rhs: Realm.Error.Code) -> Bool { lhs != rhs.rawValue }
