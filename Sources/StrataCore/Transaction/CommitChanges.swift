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
package final class CommitChanges: @unchecked Sendable {
    /// The most objects one record lists before it gives up (about 40 bytes each).
    package static let maximumObjects = 1_000_000

    /// Per table name, what changed.
    package private(set) var tables: [String: TableChanges] = [:]
    /// Tables whose every object may have changed in ways not listed (dropped, recreated, their
    /// rows rewritten by maintenance).
    package private(set) var rewrittenTables: Set<String> = []
    /// False once the record overflowed: its lists are then partial and must not be trusted.
    package private(set) var isComplete = true
    /// The version the commit created (set when it commits).
    package var version: UInt64 = 0
    private var noted = 0

    /// Whether the record never gives up (a synced file's outbox needs every change).
    private let unbounded: Bool

    /// An empty record; `unbounded` records keep every change however many there are.
    package init(unbounded: Bool = false) { self.unbounded = unbounded }

    @inline(__always)
    private func count() -> Bool {
        noted += 1
        if noted > Self.maximumObjects && !unbounded {
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
