import Foundation
import Observation
internal import StrataCore

/// The link between one open file and Swift's Observation framework.
///
/// A read made while ``ObservationGate`` is open and a tracking may run on the reading thread
/// (``ObservationProbe``) calls ``access(_:file:configuration:)``: the hub records what was read
/// (an object's property, or a whole table for collections of query results) and reports the
/// read to its `ObservationRegistrar`, which adds it to the `withObservationTracking` running on
/// the reading thread. While it has recorded reads, the hub watches the file through
/// its notifier (``ObservationNotifierEntry``): after each commit, of any thread or process,
/// it finds the recorded reads whose data changed, forgets them, and tells the registrar
/// (`willSet`, then `didSet`), which calls the trackings' `onChange` on the notifier thread.
/// A tracking ends at its first change (Observation removes it), so each read is reported once:
/// reading again inside a new tracking records it again.
///
/// A recorded read whose tracking ended without a change stays recorded until its data changes; the hub stops watching the file when none is left.
/// Past ``maximumObjects`` objects read in one table, the table's objects are no longer
/// recorded one by one: every change of the table is reported to Observation (which ignores
/// the ones no tracking read), so memory stays bounded.
///
/// ## Concurrency
/// Thread-safe: `lock` guards the recorded reads and the registration; the registrar is
/// thread-safe.
final class ObservationHub: @unchecked Sendable {
    private struct TableReads {
        var whole = false
        var objects: [Int64: Set<Int>] = [:]
        /// Set once more than ``maximumObjects`` objects of the table were read: from then on
        /// every change of the table is reported (and the objects are not recorded one by one).
        var everyObject = false
    }

    /// The most objects of one table recorded one by one (about 100 bytes each).
    static let maximumObjects = 10_000

    let registrar = ObservationRegistrar()
    private let lock = NSLock()
    // Guarded by `lock`.
    private var reads: [String: TableReads] = [:]
    private var token: NotificationToken?

    /// A hub for one file; the file keeps it (``RealmFile/observationHub``).
    init() {
        Self.hubsLock.lock()
        Self.hubs.removeAll { $0.hub == nil }
        Self.hubs.append(WeakHub(self))
        Self.hubsLock.unlock()
    }

    // MARK: The hubs of open files

    private final class WeakHub {
        weak var hub: ObservationHub?
        init(_ hub: ObservationHub) { self.hub = hub }
    }

    private static let hubsLock = NSLock()
    private nonisolated(unsafe) static var hubs: [WeakHub] = []

    /// The hub of `file`.
    static func hub(for file: RealmFile) -> ObservationHub {
        file.observationHub
    }

    /// Forgets every recorded read of every file and stops watching the files (tests, so that
    /// one test's reads do not keep its files open for the next).
    static func forgetAllReads() {
        hubsLock.lock()
        let all = hubs.compactMap(\.hub)
        hubsLock.unlock()
        for hub in all {
            hub.lock.lock()
            hub.reads = [:]
            let token = hub.token
            hub.token = nil
            hub.lock.unlock()
            token?.invalidate()
        }
    }

    // MARK: Reads

    /// Records a read of `slot` in `file` made with `configuration`, and reports it to
    /// Observation. `configuration` is evaluated only when the hub starts watching the file.
    func access(_ slot: ObservationSlot, file: RealmFile, configuration: @autoclosure () -> Realm.Configuration) {
        lock.lock()
        // One lookup of the table's reads, changed in place (a copy changed and stored back
        // copied its dictionary on every read: quadratic in the objects read).
        Self.record(slot, in: &reads[slot.table, default: TableReads()])
        if token == nil {
            let token = NotificationToken()
            let entry = ObservationNotifierEntry(
                token: token, target: .queue(DispatchQueue.global(), configuration()), hub: self)
            self.token = token
            // Attached under the lock, so a commit cannot slip between the record and the watch.
            token.attach(entry, to: file.notifier)
        }
        lock.unlock()
        registrar.access(ObservationSubject.shared, keyPath: slot.keyPath)
    }

    /// Adds `slot` to the reads of its table.
    private static func record(_ slot: ObservationSlot, in table: inout TableReads) {
        guard let key = slot.key, let column = slot.column else {
            table.whole = true
            return
        }
        if table.everyObject { return }
        table.objects[key, default: []].insert(column)
        if table.objects.count > maximumObjects {
            table.objects = [:]
            table.everyObject = true
        }
    }

    // MARK: Changes

    /// Reports the recorded reads whose data `span` changed, and forgets them.
    func update(_ span: ChangeSpan) throws {
        lock.lock()
        var fired: [ObservationSlot] = []
        var failure: Swift.Error?
        for (name, table) in reads {
            let changes: TableChanges
            do {
                changes = try span.changes(name)
            } catch {
                failure = error
                break
            }
            if changes.isEmpty { continue }
            var remaining = table
            if table.whole {
                fired.append(ObservationSlot(table: name, key: nil, column: nil))
                remaining.whole = false
            }
            if table.everyObject {
                let columnCount = span.new.tables[name]?.columns.count ?? 0
                for key in changes.deleted {
                    for column in 0..<columnCount {
                        fired.append(ObservationSlot(table: name, key: key, column: column))
                    }
                }
                for (key, modified) in changes.modified {
                    for column in 0..<columnCount where modified == .all || modified.contains(column) {
                        fired.append(ObservationSlot(table: name, key: key, column: column))
                    }
                }
            }
            for (key, columns) in table.objects {
                let changed: Set<Int>
                if changes.deleted.contains(key) {
                    changed = columns
                } else if let modified = changes.modified[key] {
                    changed = columns.filter { modified == .all || modified.contains($0) }
                } else {
                    continue
                }
                for column in changed { fired.append(ObservationSlot(table: name, key: key, column: column)) }
                let left = columns.subtracting(changed)
                remaining.objects[key] = left.isEmpty ? nil : left
            }
            reads[name] = remaining.whole || remaining.everyObject || !remaining.objects.isEmpty ? remaining : nil
        }
        var detached: NotificationToken?
        if reads.isEmpty {
            detached = token
            token = nil
        }
        lock.unlock()
        for slot in fired {
            registrar.willSet(ObservationSubject.shared, keyPath: slot.keyPath)
            registrar.didSet(ObservationSubject.shared, keyPath: slot.keyPath)
        }
        detached?.invalidate()
        if let failure { throw failure }
    }

    /// The recorded reads, for tests: the number of watched tables, objects and properties.
    var recordedReadCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return reads.values.reduce(0) {
            $0 + ($1.whole ? 1 : 0) + ($1.everyObject ? 1 : 0) + $1.objects.values.reduce(0) { $0 + $1.count }
        }
    }
}
