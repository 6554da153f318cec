import Foundation
internal import StrataCore
internal import StrataStorage

/// One open database file shared by every `Realm` instance of the same path in this process:
/// the storage handle and the table bindings of the model classes used with it.
///
/// ## Concurrency
/// Thread-safe: bindings are created under `lock`; the storage `Database` is thread-safe.
final class RealmFile: @unchecked Sendable {
    let path: String
    let db: Database
    /// The key the file was opened with (nil for a plain file): realms of this process that share
    /// the handle must give the same one.
    let encryptionKey: [UInt8]?
    let isInMemory: Bool
    let lock = NSLock()
    /// Makes asynchronous commits durable (`Database.sync()`), one at a time, off the realms' threads.
    let syncQueue = DispatchQueue(label: "io.strata.sync", qos: .userInitiated)
    /// Stored tables (the file's schema catalog, as of the last schema change).
    var tables: [String: StoreTable] = [:]
    /// The first damage a read of this process found in the file (guarded by `lock`).
    var damageFound: Realm.Error?
    /// Set when opening a realm of this file failed after the file was opened (a schema that
    /// cannot be read, a failed migration): closing it then writes nothing.
    nonisolated(unsafe) var openFailed = false
    /// Versions pinned by realms of this process: version -> number of snapshots.
    var pinned = PinCounts()
    private var bindings = TypeTable<TableBinding>()
    private var bindingsByName: [String: TableBinding] = [:]
    /// Bindings of stored classes read through `DynamicObject`, by class name (guarded by `lock`;
    /// see RealmFile+Dynamic.swift).
    var dynamicBindings: [String: TableBinding] = [:]
    /// Per bound table whose model maps property names (`propertiesMapping()`): stored name by
    /// Swift name, for queries (`StoreTransaction.propertyColumns`).
    private var propertyColumns: [String: [String: String]] = [:]
    /// Records the reads of this file's objects made inside Observation trackings.
    let observationHub = ObservationHub()
    /// Sees every commit of this file before it is made (the sync product's outbox); guarded by `lock`.
    private var commitObserverStorage: (any RealmCommitObserver)?

    /// The commit observer, if one is installed.
    var commitObserver: (any RealmCommitObserver)? {
        get { lock.withLock { commitObserverStorage } }
        set { lock.withLock { commitObserverStorage = newValue } }
    }

    /// The realms of this file in this process (weak; frozen ones are not listed), for
    /// `writeLockHeldHere`. Guarded by `lock`.
    private var realmStates: [QueueIdentity.WeakRealmState] = []

    /// Lists `state` among the realms of this file.
    func register(_ state: RealmState) {
        lock.withLock {
            realmStates.removeAll { $0.realmState == nil }
            realmStates.append(QueueIdentity.WeakRealmState(state))
        }
    }

    /// Whether a realm of this file confined to the calling thread, queue or actor holds the
    /// file's write lock: it is in a write transaction, or one is parked for its asynchronous
    /// writes. Another write of the file begun here and waited for would then wait for itself.
    /// Reads a realm's transaction only when the caller is that realm's owner.
    func writeLockHeldHere() -> Bool {
        let states = lock.withLock { realmStates.compactMap(\.realmState) }
        for state in states where state.isOnOwner {
            if state.writeTxn != nil || state.asyncWrites?.holdsParkedTransaction == true { return true }
        }
        return false
    }

    private nonisolated(unsafe) static var open: [String: Weak] = [:]
    private static let openLock = NSLock()

    private final class Weak {
        weak var file: RealmFile?
        init(_ file: RealmFile) { self.file = file }
    }

    private init(path: String, db: Database, isInMemory: Bool, encryptionKey: [UInt8]? = nil) {
        self.path = path
        self.db = db
        self.encryptionKey = encryptionKey
        self.isInMemory = isInMemory
    }

    deinit {
        dropNotifier()
        // Nothing is written to a file found damaged, not even the clean-close record.
        db.close(markingClean: damage == nil && !openFailed)
        if isInMemory {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".lock")
        }
    }

    /// The shared file for `path`, opening it if no realm of this process has it open.
    ///
    /// A read-only realm shares whatever handle is open (a read-write handle serves it; its
    /// configuration refuses writes). A read-write realm of a file this process has open only
    /// read-only gets a read-write handle of its own, which later opens share; the read-only
    /// handle stays with the realms that use it, coordinating with the new one through the lock
    /// file as two processes do.
    static func shared(
        path: String, readOnly: Bool, isInMemory: Bool, openLastIntactVersion: Bool = false,
        encryptionKey: [UInt8]? = nil
    ) throws -> RealmFile {
        openLock.lock()
        defer { openLock.unlock() }
        if let f = open[path]?.file, readOnly || !f.db.isReadOnly {
            // The handle checked its own key when it opened; a realm of the same file with another
            // key (or none) must not read through it.
            try Realm.requireSameKey(f.encryptionKey.map { Data($0) }, encryptionKey.map { Data($0) }, path: path)
            return f
        }
        var options = Database.Options()
        // 8 KiB pages: clusters of up to 2,016 bytes. Measured against 4 KiB (`strata-bench w1`, 1M objects,
        // Docs/Performance.md): scans 1.7x faster, file 7% smaller, other steps equal or faster.
        options.pageSize = 8192
        options.readOnly = readOnly
        options.create = !readOnly
        options.openLastIntactVersion = openLastIntactVersion
        options.encryptionKey = encryptionKey
        let db = try Database(path: path, options: options)
        let file = RealmFile(path: path, db: db, isInMemory: isInMemory, encryptionKey: encryptionKey)
        open[path] = Weak(file)
        return file
    }

    /// Whether any realm in this process has `path` open.
    static func isOpen(_ path: String) -> Bool {
        openLock.lock()
        defer { openLock.unlock() }
        return open[path]?.file != nil
    }

    /// The file a realm of this process has open at `path`, if any.
    static func openFile(_ path: String) -> RealmFile? {
        openLock.lock()
        defer { openLock.unlock() }
        return open[path]?.file
    }

    func binding(for type: ObjectBase.Type) -> TableBinding? {
        lock.lock()
        defer { lock.unlock() }
        return bindings[ObjectIdentifier(type)]
    }

    func binding(named name: String) -> TableBinding? {
        lock.lock()
        defer { lock.unlock() }
        return bindingsByName[name]
    }

    func allBindings() -> [TableBinding] {
        lock.lock()
        defer { lock.unlock() }
        return Array(bindingsByName.values)
    }

    func install(_ binding: TableBinding) {
        lock.lock()
        defer { lock.unlock() }
        bindings[ObjectIdentifier(binding.type)] = binding
        bindingsByName[binding.className] = binding
        tables[binding.table.name] = binding.table
        propertyColumns[binding.table.name] = Self.propertyColumns(of: binding)
    }

    /// The stored name of each property by Swift name, or nil when every property is stored
    /// under its Swift name.
    static func propertyColumns(of binding: TableBinding) -> [String: String]? {
        let properties = binding.schema.properties
        guard properties.contains(where: { $0.columnName != $0.name }) else { return nil }
        return Dictionary(properties.map { ($0.name, $0.columnName) }, uniquingKeysWith: { a, _ in a })
    }

    /// Gives `txn` the tables and property names known now.
    func prepare(_ txn: StoreTransaction) {
        lock.lock()
        defer { lock.unlock() }
        txn.tables = tables
        txn.propertyColumns = propertyColumns
    }

    /// Records stored tables this process has not bound (classes no model declares), so that a
    /// delete also cleans up the links they hold.
    func noteStoredTables(_ stored: [String: StoreTable]) {
        lock.lock()
        defer { lock.unlock() }
        for (name, table) in stored where tables[name] == nil { tables[name] = table }
    }

    /// Replaces the known tables after a schema change (tables may have been renamed or dropped).
    func replaceTables(_ new: [String: StoreTable]) {
        lock.lock()
        defer { lock.unlock() }
        tables = new
    }

    /// The bindings and tables, to put back when a schema change fails (it installs bindings as
    /// it goes, before its transaction commits).
    struct BindingState {
        fileprivate let bindings: TypeTable<TableBinding>
        fileprivate let bindingsByName: [String: TableBinding]
        fileprivate let tables: [String: StoreTable]
    }

    func bindingState() -> BindingState {
        lock.lock()
        defer { lock.unlock() }
        return BindingState(bindings: bindings, bindingsByName: bindingsByName, tables: tables)
    }

    func restore(_ state: BindingState) {
        lock.lock()
        defer { lock.unlock() }
        bindings = state.bindings
        bindingsByName = state.bindingsByName
        tables = state.tables
        propertyColumns = [:]
        for b in bindingsByName.values { propertyColumns[b.table.name] = Self.propertyColumns(of: b) }
    }
}
