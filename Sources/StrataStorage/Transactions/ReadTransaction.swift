/// A read-only snapshot of one committed version.
///
/// Everything it returns (tree handles, keys and values) describes that version no matter what
/// writers commit meanwhile. Keys and values point into the memory map and stay valid until the
/// transaction ends.
///
/// ```swift
/// try db.read { txn in
///     guard let tree = try txn.tree(named: "people") else { return }
///     try txn.forEach(in: tree) { key, value in print(key.count, value.count); return true }
/// }
/// ```
///
/// ## Concurrency
/// `Sendable`: a snapshot is immutable, so several threads may read through one transaction at
/// once. It pins its version until ``end()`` or deinitialization.
public final class ReadTransaction: @unchecked Sendable {
    let database: Database
    let mapping: Mapping
    let access: PageAccess
    /// The committed version this snapshot shows.
    public let version: VersionID
    let catalogRoot: UInt32
    private let endLock = Lock()
    private var ended = false

    init(database: Database, state: PublishedState, mapping: Mapping) {
        self.database = database
        self.mapping = mapping
        self.version = VersionID(state.version)
        self.catalogRoot = state.catalogRoot
        self.access = PageAccess(
            base: mapping.base, pageSize: database.pageSize, pageCount: state.pageCount, path: database.pathName,
            maxVersion: state.version, checked: mapping.checked, sealed: mapping.sealed)
    }

    deinit { end() }

    /// Releases the snapshot. Later calls on this transaction are programmer errors; values it
    /// returned must not be used after this.
    public func end() {
        let first = endLock.withLock { () -> Bool in
            if ended { return false }
            ended = true
            return true
        }
        if first { database.unpin(version.rawValue) }
    }

    /// The tree named `name` in this version, or nil if it does not exist.
    public func tree(named name: String) throws -> Tree? {
        guard !name.isEmpty else { return nil }  // the engine's area-counts tree
        return try Catalog.lookup(name, root: catalogRoot, access)
    }

    /// The bytes of area `ref` (FORMAT.md, "Area pages"), pointing into the map (valid until the
    /// transaction ends).
    /// - Throws: ``StorageError/corruptPage(path:page:reason:)`` when `ref` does not name an area
    ///   of an area page of this version.
    package func area(_ ref: AreaReference) throws -> UnsafeRawBufferPointer {
        try access.area(ref)
    }

    /// The names of every tree in this version, in byte order.
    public func treeNames() throws -> [String] {
        try Catalog.names(root: catalogRoot, access)
    }

    /// The value stored under `key`, pointing into the map (valid until the transaction ends).
    public func get(_ key: UnsafeRawBufferPointer, in tree: Tree) throws -> UnsafeRawBufferPointer? {
        try access.get(root: tree.root, key)
    }

    /// The value stored under `key`, copied.
    public func get(_ key: [UInt8], in tree: Tree) throws -> [UInt8]? {
        try key.withUnsafeBytes { try access.get(root: tree.root, $0).map { Array($0) } }
    }

    /// Calls `body` for each entry with key >= `start` (all entries if nil) in key order, until
    /// `body` returns false.
    public func forEach(
        in tree: Tree, from start: [UInt8]? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        if let start {
            try start.withUnsafeBytes { try access.forEach(root: tree.root, from: $0, body) }
        } else {
            try access.forEach(root: tree.root, from: nil, body)
        }
    }

    /// A cursor over `tree`, positioned before its first entry.
    public func cursor(over tree: Tree) -> Cursor {
        Cursor(access: access, root: tree.root, owner: self)
    }
}
