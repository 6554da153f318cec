import Foundation
internal import StrataCore
internal import StrataStorage

/// A database of objects: an instance of a Strata file, with RealmSwift's API.
///
/// ```swift
/// let realm = try Realm()
/// try realm.write {
///     realm.add(Dog(value: ["name": "Rex", "age": 3]))
/// }
/// let puppies = realm.objects(Dog.self).where { $0.age < 2 }
/// ```
///
/// A realm shows one committed version of the file. `write` (or `beginWrite`) moves it to the
/// newest version; `refresh()` does so outside a write.
///
/// ## Concurrency
/// Not `Sendable`: a realm, its live objects and its live results belong to the thread (or serial
/// queue) that opened them; using them elsewhere stops with "Realm accessed from incorrect
/// thread." (through `Realm.violationHandler`). `Realm()` on one thread returns the same realm
/// (equal values sharing one state) for the same configuration. A frozen realm (`freeze()`) may
/// be read from any thread.
public struct Realm: Equatable {
    /// How a realm is opened: its file, schema and migration.
    ///
    /// ## Concurrency
    /// `Sendable`: the migration block must be `@Sendable`.
    public struct Configuration: @unchecked Sendable {
        /// The file, by default `default.realm` in the current directory.
        public var fileURL: URL?
        /// Names an in-memory realm: its data lives as long as a realm instance with this
        /// identifier is open in this process (it is kept in a temporary file that is deleted then).
        /// Setting it clears `fileURL`.
        public var inMemoryIdentifier: String? {
            didSet { if inMemoryIdentifier != nil { fileURL = nil } }
        }
        /// A 64-byte key for an encrypted file, or nil. Strata does not encrypt files yet: opening
        /// a realm with a key fails with `Realm.Error.fail` (naming the file) and changes nothing.
        public var encryptionKey: Data?
        /// Open the file read-only: no writes, no schema changes.
        public var readOnly = false
        /// The version of the schema; raise it when a change needs a migration.
        public var schemaVersion: UInt64 = 0
        /// Called to migrate objects when the file's schema version is lower than `schemaVersion`.
        public var migrationBlock: MigrationBlock?
        /// Delete the file instead of migrating when the schema changed incompatibly.
        public var deleteRealmIfMigrationNeeded = false
        /// The model classes this realm stores; nil for every class of the modules whose classes
        /// it is used with.
        public var objectTypes: [ObjectBase.Type]?
        /// The most versions this file may pin at once in this process (frozen objects, open
        /// realms); 0 for no limit.
        public var maximumNumberOfActiveVersions: UInt = 0
        /// What opening does when the file's newest commit was made durable but its pages were
        /// damaged since: `false` (the default) fails with `Realm.Error.invalidDatabase` and
        /// changes nothing; `true` opens the last intact version instead, losing that commit.
        /// (A commit torn by a crash before it was durable is always rolled back.)
        public var openLastIntactVersion = false
        /// Called when a process first opens the file (no realm of this process has it open, and
        /// no other process has it open either) with the file's size and the bytes its data uses;
        /// returning true compacts the file before the realm is returned
        /// (`Realm+Files.swift`). A read-only configuration may not set it.
        public var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// A file copied to `fileURL` when no file exists there yet: a database shipped with the
        /// app (a bundle resource) becomes the realm's first content.
        public var seedFilePath: URL?
        /// The models of the module that made this configuration, which `Realm(configuration:)`
        /// compares with the file when `objectTypes` is nil. Set by the `Realm.Configuration`
        /// initializer StrataPlugin generates in each module with models; not API.
        public var _strataModuleSchema: Schema?
        /// The sync product's attachment (`StrataSync`'s `syncConfiguration`); nil for a local realm.
        package var _syncAttachment: (any RealmSyncAttachment)?

        /// A configuration; every argument has RealmSwift's default, in RealmSwift's order.
        ///
        /// - Parameters:
        ///   - fileURL: the file; nil for `default.realm` in the current directory.
        ///   - inMemoryIdentifier: names an in-memory realm instead of a file.
        ///   - encryptionKey: a 64-byte key for an encrypted file (AES-256-GCM per page; FORMAT.md,
        ///     "Encrypted files"); nil for a plain file. A new file is created encrypted with it;
        ///     an existing file opens only with the key it was created with.
        ///   - readOnly: open without writes or schema changes.
        ///   - schemaVersion: the version of the schema.
        ///   - migrationBlock: migrates objects from an older schema version.
        ///   - deleteRealmIfMigrationNeeded: delete the file instead of migrating.
        ///   - shouldCompactOnLaunch: asked at the first open in the process whether to compact.
        ///   - objectTypes: the model classes stored; nil for every class of the calling modules.
        ///   - seedFilePath: a file copied to `fileURL` when no file exists there yet.
        ///   - maximumNumberOfActiveVersions: the most versions this file may pin at once.
        public init(
            fileURL: URL? = nil, inMemoryIdentifier: String? = nil, encryptionKey: Data? = nil,
            readOnly: Bool = false, schemaVersion: UInt64 = 0, migrationBlock: MigrationBlock? = nil,
            deleteRealmIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)? = nil,
            objectTypes: [ObjectBase.Type]? = nil, seedFilePath: URL? = nil,
            maximumNumberOfActiveVersions: UInt = 0
        ) {
            self.fileURL = inMemoryIdentifier == nil ? (fileURL ?? Self.defaultFileURL) : nil
            self.inMemoryIdentifier = inMemoryIdentifier
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.objectTypes = objectTypes
            self.seedFilePath = seedFilePath
            self.maximumNumberOfActiveVersions = maximumNumberOfActiveVersions
        }

        /// A configuration that knows the models of the calling module (`Schema.generated`). The
        /// initializer StrataPlugin generates in a module with models calls it, so that
        /// `Realm(configuration:)` checks every model of that module at open. When you change the
        /// parameters of `init(fileURL:...)`, change `SchemaEmitter.emitConfiguration` too.
        public init(
            _strataModuleSchema schema: Schema, fileURL: URL?, inMemoryIdentifier: String?, encryptionKey: Data?,
            readOnly: Bool, schemaVersion: UInt64, migrationBlock: MigrationBlock?, deleteRealmIfMigrationNeeded: Bool,
            shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?,
            objectTypes: [ObjectBase.Type]?, seedFilePath: URL?, maximumNumberOfActiveVersions: UInt
        ) {
            self.init(
                fileURL: fileURL, inMemoryIdentifier: inMemoryIdentifier, encryptionKey: encryptionKey,
                readOnly: readOnly, schemaVersion: schemaVersion, migrationBlock: migrationBlock,
                deleteRealmIfMigrationNeeded: deleteRealmIfMigrationNeeded,
                shouldCompactOnLaunch: shouldCompactOnLaunch, objectTypes: objectTypes, seedFilePath: seedFilePath,
                maximumNumberOfActiveVersions: maximumNumberOfActiveVersions)
            _strataModuleSchema = schema.objectTypes.isEmpty ? nil : schema
        }

        /// `default.realm` in the current directory.
        public static var defaultFileURL: URL {
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("default.realm")
        }

        private static let defaultLock = NSLock()
        private nonisolated(unsafe) static var defaultStorage = Configuration()

        /// The configuration `Realm()` uses.
        public static var defaultConfiguration: Configuration {
            get { defaultLock.lock(); defer { defaultLock.unlock() }; return defaultStorage }
            set { defaultLock.lock(); defer { defaultLock.unlock() }; defaultStorage = newValue }
        }

        /// The path of the file this configuration opens.
        var path: String {
            if let id = inMemoryIdentifier {
                let safe = id.map { $0.isLetter || $0.isNumber ? $0 : "_" }
                return NSTemporaryDirectory() + "/strata-inmemory-\(getpid())-\(String(safe)).realm"
            }
            return Self.filePath(of: fileURL ?? Self.defaultFileURL)
        }
    }

    /// How `add` and `create` treat an object whose primary key already exists.
    public enum UpdatePolicy: Sendable {
        /// A duplicate primary key is an error (the default).
        case error
        /// Update the existing object, writing only the properties whose values differ.
        case modified
        /// Update the existing object, writing every property.
        case all
    }

    /// The shared state of this realm (one per thread, queue or frozen version).
    let realmState: RealmState

    /// The configuration this realm was opened with.
    public var configuration: Configuration { realmState.configuration }
    var file: RealmFile { realmState.file }
    var readTxn: StoreTransaction? {
        get { realmState.readTxn }
        nonmutating set { realmState.readTxn = newValue }
    }
    var writeTxn: StoreTransaction? {
        get { realmState.writeTxn }
        nonmutating set { realmState.writeTxn = newValue }
    }
    /// Changes whenever the data this realm shows may have changed (cached rows compare it).
    var stamp: UInt64 {
        get { realmState.stamp }
        nonmutating set { realmState.stamp = newValue }
    }
    /// The first error of the current write, reported by `commitWrite`/`write`.
    var pendingError: Realm.Error? {
        get { realmState.pendingError }
        nonmutating set { realmState.pendingError = newValue }
    }
    /// Bindings this realm has used, without the file's lock.
    var bindingCache: TypeTable<TableBinding> {
        get { realmState.bindingCache }
        nonmutating set { realmState.bindingCache = newValue }
    }

    init(realmState: RealmState) {
        self.realmState = realmState
    }

    /// Realms are equal when they share one state: the same file, opened on the same thread or
    /// queue (or the same frozen version).
    public static func == (a: Realm, b: Realm) -> Bool { a.realmState === b.realmState }

    /// Opens the default realm (`Configuration.defaultConfiguration`).
    public init() throws {
        try self.init(configuration: .defaultConfiguration)
    }

    /// Opens the realm `configuration` describes, creating the file and its tables as needed and
    /// running migrations. On a thread that already has this file open, returns that realm.
    /// - Throws: `Realm.Error` naming the file, or the type and property whose schema differs.
    public init(configuration: Configuration) throws {
        // The main thread and the main queue are one context (the queue's blocks run on another
        // thread after dispatchMain()), so a realm opened there belongs to both.
        try self.init(
            configuration: configuration, confinement: QueueIdentity.isMainContext ? .main : .thread(ThreadID.current))
    }

    /// Opens a realm confined to the serial `queue`: use it (and its objects) only from blocks
    /// running on that queue.
    public init(configuration: Configuration = .defaultConfiguration, queue: DispatchQueue) throws {
        try self.init(configuration: configuration, confinement: .queue(QueueIdentity.of(queue)))
        realmState.queue = queue
    }

    init(configuration: Configuration, confinement: Confinement) throws {
        // Resolved once: a file URL's path costs a Foundation conversion each time it is asked.
        let path = configuration.path
        if let cached = RealmState.cached(path: path, confinement: confinement),
            cached.configuration.schemaVersion == configuration.schemaVersion,
            cached.configuration.readOnly == configuration.readOnly
        {
            try Realm.requireSameKey(
                cached.configuration.encryptionKey, configuration.encryptionKey, path: cached.file.path)
            self.realmState = cached
            try prepareSchemaAtOpen()
            try configuration._syncAttachment?.realmDidOpen(self)
            return
        }
        // As in RealmSwift, a missing directory is an error, not created: a typo in a path must
        // not silently give an empty database.
        let dir = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !dir.isEmpty, !FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) {
            throw Realm.Error(
                .fileNotFound,
                "Unable to open a realm at path '\(path)': the directory '\(dir)' does not exist. Create it first (FileManager.default.createDirectory), or check the path.",
                path: path)
        } else if !dir.isEmpty, !isDirectory.boolValue {
            throw Realm.Error(
                .fileAccess, "Unable to open a realm at path '\(path)': '\(dir)' is not a directory. Check the path.",
                path: path)
        }
        try Realm.prepareFilesBeforeOpen(configuration)
        if configuration.readOnly && !FileManager.default.fileExists(atPath: path) {
            throw Realm.Error(
                .fileNotFound,
                "Unable to open a realm at path '\(path)': the file does not exist, and a read-only realm cannot create it.",
                path: path)
        }
        let wasOpen = RealmFile.isOpen(path)
        let file: RealmFile
        do {
            file = try RealmFile.shared(
                path: path, readOnly: configuration.readOnly, isInMemory: configuration.inMemoryIdentifier != nil,
                openLastIntactVersion: configuration.openLastIntactVersion,
                encryptionKey: configuration.encryptionKey.map { [UInt8]($0) })
        } catch {
            throw Realm.Error(storage: error, path: path)
        }
        self.realmState = RealmState(configuration: configuration, file: file, confinement: confinement)
        RealmState.remember(realmState, path: path)
        file.register(realmState)
        Logger.log(
            .detail, Category.sdk,
            wasOpen
                ? "Opened a realm of '\(path)' (the file was open in this process)"
                : "Opened '\(path)'\(configuration.readOnly ? " read-only" : "")")
        do {
            if !wasOpen { try compactOnLaunchIfAsked() }
            try prepareSchemaAtOpen()
            if !wasOpen && configuration._syncAttachment == nil && !configuration.readOnly {
                try refuseSyncedFileWithoutSync()
            }
        } catch {
            // An open that fails writes nothing to the file, not even the clean-close record.
            if !wasOpen { file.openFailed = true }
            if Realm.isDamage(error) || (error as? Realm.Error)?.code == .invalidDatabase { file.openFailed = true }
            throw error
        }
        try configuration._syncAttachment?.realmDidOpen(self)
    }

    /// A synced file (one with the sync product's meta tree) opened for writing without its sync
    /// configuration would commit changes that never reach the server: refused.
    private func refuseSyncedFileWithoutSync() throws {
        // The realm's own snapshot (its first read makes it anyway); one of its own when the
        // realm belongs to a queue or actor this thread is not on.
        let txn: StoreTransaction
        if realmState.isOnOwner {
            txn = current()
        } else {
            guard let read = try? file.db.beginRead() else { return }
            txn = StoreTransaction(read: read)
        }
        if (try? txn.count(tree: "y:m")) ?? 0 > 0 {
            throw Realm.Error(
                .fail,
                "'\(file.path)' is a synced realm: open it with its syncConfiguration (import StrataSync), or readOnly, so that its changes are not lost to the server.",
                path: file.path)
        }
    }

    // MARK: Transactions

    /// Whether this realm is inside a write transaction.
    public var isInWriteTransaction: Bool { writeTxn != nil }

    /// Whether this realm was opened read-only.
    public var isReadOnly: Bool { configuration.readOnly }

    /// Runs `block` in a write transaction and commits it, returning the block's result. If the
    /// block throws, or an `add`/`create` inside it failed, the transaction is cancelled and the
    /// error is rethrown: nothing of it is written.
    ///
    /// Misuse that RealmSwift raises as an exception (a `write` inside a write, on a frozen or
    /// read-only realm, from another thread, inside a commit completion) is reported to
    /// `Realm.violationHandler` (the process stops without one); when the handler returns, the
    /// block does not run and `write` throws the same message as a `Realm.Error`.
    /// - Throws: a failed add/create, a storage error (`Realm.Error`), or what `block` throws.
    @discardableResult
    public func write<Result>(
        withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result
    ) throws -> Result {
        if let misuse = writeMisuse() {
            Realm.violation(misuse.message, fallback: ())
            throw misuse
        }
        try startWrite()
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Starts a write transaction, waiting for other writers (threads or processes) to finish, and
    /// moves the realm to the newest version.
    ///
    /// As in RealmSwift it does not throw. Misuse (inside a write, on a frozen or read-only realm,
    /// from another thread, inside a commit completion) is reported to `Realm.violationHandler`
    /// and no transaction begins. A storage failure (the file was found damaged, or the lock or
    /// the file could not be read) is reported the same way, since RealmSwift can only fail here
    /// by exception; `write { }` throws it instead.
    public func beginWrite() {
        if let misuse = writeMisuse() {
            return Realm.violation(misuse.message, fallback: ())
        }
        do {
            try startWrite()
        } catch {
            Realm.violation("\(error)", fallback: ())
        }
    }

    /// Why a write cannot begin here (RealmSwift raises these as exceptions), or nil.
    func writeMisuse() -> Realm.Error? {
        guard realmState.isOnOwner else {
            return Realm.Error(
                .wrongThread,
                "Realm accessed from incorrect thread. ('\(file.path)' belongs to another thread or queue; open a realm on this thread, or pass a ThreadSafeReference.)",
                path: file.path)
        }
        guard !isFrozen else {
            return Realm.Error(
                .frozen,
                "Can't perform transactions on a frozen Realm. ('\(file.path)': call thaw() to get the live realm, and write there.)",
                path: file.path)
        }
        guard writeTxn == nil else {
            return Realm.Error(
                .alreadyInWriteTransaction,
                "The Realm is already in a write transaction. Commit or cancel it before starting another, and do not call write inside a write block."
            )
        }
        guard !configuration.readOnly else {
            return Realm.Error(
                .readOnly,
                "Can't perform transactions on read-only Realms. ('\(file.path)': open it without readOnly to write.)",
                path: file.path)
        }
        if realmState.asyncWrites?.inCompletion == true {
            return Realm.Error(
                .alreadyInWriteTransaction,
                "Can't begin a write transaction from inside a commit completion callback. Queue it with writeAsync or beginAsyncWrite instead."
            )
        }
        return nil
    }

    /// Begins the write transaction once `writeMisuse()` found nothing wrong.
    /// - Throws: the damage a read of this process found, or a storage error.
    private func startWrite() throws {
        try checkCanBeginWrite()
        endRead()
        do {
            // A transaction parked for this realm's asynchronous writes is used here: waiting
            // for the lock instead would wait for ourselves.
            install(try realmState.asyncWrites?.takeForSynchronousWrite() ?? file.db.beginWrite())
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
    }

    /// Commits the write transaction, durably: when it returns, the changes survive a crash.
    /// - Throws: the first error an `add`/`create`/property write of this transaction hit (the
    ///   transaction is then cancelled), or a storage error.
    ///
    /// A commit outside a write transaction, or from another thread, is reported to
    /// `Realm.violationHandler` (RealmSwift raises an exception); when the handler returns,
    /// nothing happens.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        guard checkThread() else { return }
        guard let txn = writeTxn else {
            return Realm.violation(
                "Can't commit a non-existing write transaction. (Call beginWrite() first.)", fallback: ())
        }
        if let error = pendingError {
            cancelWrite()
            throw error
        }
        let version: UInt64
        do {
            version = try commitNotifying(txn, skipping: tokens)
        } catch {
            writeTxn = nil
            stamp &+= 1
            throw Realm.Error(storage: error, path: file.path)
        }
        writeTxn = nil
        stamp &+= 1
        Logger.log(.trace, Category.Storage.transaction, "Committed a write transaction to '\(file.path)'")
        notifyAfterCommit(txn, version: version)
        // This durable commit made earlier asynchronous commits durable too: their completions
        // run, and queued asynchronous writes go on.
        realmState.asyncWrites?.afterWrite()
    }

    /// Rolls back every change of the current write transaction. Objects added in it become
    /// invalid. Outside a write transaction this is reported to `Realm.violationHandler`, as
    /// RealmSwift raises an exception for it.
    public func cancelWrite() {
        guard checkThread() else { return }
        guard let txn = writeTxn else {
            return Realm.violation(
                "Can't cancel a non-existing write transaction. (Call beginWrite() first.)", fallback: ())
        }
        txn.write?.abort()
        writeTxn = nil
        pendingError = nil
        stamp &+= 1
        realmState.asyncWrites?.afterWrite()
    }

    /// Moves the realm to the newest committed version. Returns whether anything changed.
    @discardableResult
    public func refresh() -> Bool {
        guard checkThread() else { return false }
        guard writeTxn == nil else { return false }
        guard !isFrozen else { return false }
        // Change sets held while autorefresh was off are delivered with the version they describe.
        if realmState.deliverHeld() { return true }
        guard let r = readTxn?.read else { return false }
        if r.version == file.db.latestVersion { return false }
        endRead()
        stamp &+= 1
        return true
    }

    /// Whether the realm moves to newer versions by itself: when change notifications are
    /// delivered to it (on its run loop, queue or actor), it first moves to the version they
    /// describe. Off, notifications wait for `refresh()` and realm observers get
    /// `.refreshRequired`. A write always begins at the newest version.
    public var autorefresh: Bool {
        get { realmState.autorefresh }
        nonmutating set { realmState.autorefresh = newValue }
    }

    func endRead() {
        // Dropping the snapshot ends the read transaction once no frozen realm shares it.
        readTxn = nil
        realmState.snapshot = nil
    }

    /// The transaction reads go through: the write transaction, else the current snapshot.
    func current() -> StoreTransaction {
        guard checkThread() else {
            // Reported already (a handler is installed): answer from a snapshot of our own, so the
            // owner's transaction is never touched from this thread.
            guard let read = try? file.db.beginRead() else { fatalError("Strata cannot read '\(file.path)'") }
            let txn = StoreTransaction(read: read)
            file.prepare(txn)
            return txn
        }
        if let w = writeTxn { return w }
        if let r = readTxn { return r }
        do {
            let snapshot = PinnedSnapshot(read: try file.db.beginRead(), file: file)
            let txn = StoreTransaction(read: snapshot.read)
            file.prepare(txn)
            readTxn = txn
            realmState.snapshot = snapshot
            return txn
        } catch {
            fatalError("Strata cannot read '\(file.path)': \(error)")
        }
    }

    // MARK: Errors inside writes

    /// Records the first error of this write transaction; `write`/`commitWrite` throws it.
    func fail(_ error: Realm.Error) {
        if pendingError == nil { pendingError = error }
    }

    /// Handles misuse that RealmSwift reports by raising an exception (a write outside a
    /// transaction, access to a deleted object): by default the process stops with `message`,
    /// as RealmSwift's exception does. Tests (and hosts that prefer to log) can install a handler
    /// that returns instead; the operation is then skipped and `fallback` is returned.
    public nonisolated(unsafe) static var violationHandler: ((String) -> Void)?

    /// The open write transaction when this realm's objects may be modified here and now; nil
    /// after reporting the misuse as RealmSwift does (a realm of another thread, a frozen realm,
    /// no write transaction). Every write entry point starts with it.
    @inline(__always)
    func modifiableTransaction() -> StoreTransaction? {
        guard checkThread() else { return nil }
        guard !isFrozen else {
            return Realm.violation(
                "Attempting to modify a frozen object - call thaw on the Object instance first.", fallback: nil)
        }
        guard let txn = writeTxn else {
            return Realm.violation("Cannot modify managed objects outside of a write transaction.", fallback: nil)
        }
        return txn
    }

    @usableFromInline
    static func violation<T>(_ message: String, fallback: T) -> T {
        // Inside a quick write (a `$`-binding's implicit write), misuse goes to its error handler.
        if QuickWrite.divert(message) { return fallback }
        if let handler = violationHandler {
            handler(message)
            return fallback
        }
        fatalError(message)
    }

}

/// Called to migrate a file from `oldSchemaVersion` to the configuration's schema version.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void
