/// The columns of one object that a write changed, as a bit set: bit `c` for column `c` below
/// 63; bit 63 stands for every column from 63 on (so a test against it is conservative).
public struct ColumnSet: Sendable, Hashable {
    public var bits: UInt64

    public init(bits: UInt64 = 0) { self.bits = bits }

    /// Every column.
    public static let all = ColumnSet(bits: .max)

    /// The set holding `column`.
    @inline(__always)
    public static func column(_ column: Int) -> ColumnSet { ColumnSet(bits: 1 << UInt64(min(column, 63))) }

    @inline(__always)
    public mutating func insert(_ column: Int) { bits |= 1 << UInt64(min(column, 63)) }

    public func contains(_ column: Int) -> Bool { bits & (1 << UInt64(min(column, 63))) != 0 }

    public func intersects(_ other: ColumnSet) -> Bool { bits & other.bits != 0 }

    public var isEmpty: Bool { bits == 0 }

    public mutating func formUnion(_ other: ColumnSet) { bits |= other.bits }
}

/// What one table's objects went through in one commit (or in several, merged): the keys of the
/// objects it inserted, of those it deleted, and per modified object the columns written.
///
/// An object inserted and deleted in the same span appears in neither set; one deleted and
/// inserted again under the same key (a primary key reused) counts as modified in every column.
public struct TableChanges: Sendable, Equatable {
    public var inserted: Set<Int64> = []
    public var deleted: Set<Int64> = []
    public var modified: [Int64: ColumnSet] = [:]

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Every key the span touched.
    public var touchedKeys: Set<Int64> { inserted.union(deleted).union(modified.keys) }

    mutating func noteInsert(_ key: Int64) {
        if deleted.remove(key) != nil {
            modified[key] = .all
        } else {
            inserted.insert(key)
        }
    }

    mutating func noteDelete(_ key: Int64) {
        modified[key] = nil
        if inserted.remove(key) == nil { deleted.insert(key) }
    }

    mutating func noteModify(_ key: Int64, _ columns: ColumnSet) {
        if inserted.contains(key) { return }
        modified[key, default: ColumnSet()].formUnion(columns)
    }

    /// Appends the changes of a later span.
    public mutating func append(_ later: TableChanges) {
        for k in later.deleted { noteDelete(k) }
        for k in later.inserted { noteInsert(k) }
        for (k, c) in later.modified { noteModify(k, c) }
    }
}

/// The record of what one write transaction changed, object by object, filled in by
/// `StoreTransaction` while a recorder is attached (`StoreTransaction.changeRecorder`).
///
/// Change notifications read it to compute change sets in proportion to what changed; it is
/// also the unit a replication outbox would queue. It is bounded: past `maximumObjects` touched
/// objects it stops recording and marks itself `isComplete == false`, and readers then compare
/// the versions instead.
///
/// ## Concurrency
/// Filled by the writing thread; immutable once the commit that owns it is published, after
/// which any thread may read it.
public final class CommitChanges: @unchecked Sendable {
    /// The most objects one record lists before it gives up (about 40 bytes each).
    public static let maximumObjects = 1_000_000

    /// Per table name, what changed.
    public private(set) var tables: [String: TableChanges] = [:]
    /// Tables whose every object may have changed in ways not listed (dropped, recreated, their
    /// rows rewritten by maintenance).
    public private(set) var rewrittenTables: Set<String> = []
    /// False once the record overflowed: its lists are then partial and must not be trusted.
    public private(set) var isComplete = true
    /// The version the commit created (set when it commits).
    public var version: UInt64 = 0
    private var noted = 0

    public init() {}

    @inline(__always)
    private func count() -> Bool {
        noted += 1
        if noted > Self.maximumObjects {
            isComplete = false
            tables = [:]
            return false
        }
        return isComplete
    }

    func insert(_ table: String, _ key: Int64) {
        guard count() else { return }
        tables[table, default: TableChanges()].noteInsert(key)
    }

    func delete(_ table: String, _ key: Int64) {
        guard count() else { return }
        tables[table, default: TableChanges()].noteDelete(key)
    }

    func modify(_ table: String, _ key: Int64, column: Int) {
        guard count() else { return }
        tables[table, default: TableChanges()].noteModify(key, .column(column))
    }

    func modifyAll(_ table: String, _ key: Int64) {
        guard count() else { return }
        tables[table, default: TableChanges()].noteModify(key, .all)
    }

    func rewrite(_ table: String) {
        rewrittenTables.insert(table)
    }
}
