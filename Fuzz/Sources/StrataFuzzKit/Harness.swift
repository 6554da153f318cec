import Foundation
import Strata
import StrataStorage

/// Runs one fuzz input: materializes its file, opens it with `Database` (reads every tree and
/// entry, looks keys up, runs `verify()`, optionally writes), and, when enabled, opens it
/// through the Realm API and reads every object. A thrown error must be typed (`StorageError`,
/// `Realm.Error`); anything else stops the process, so the fuzzer reports it.
///
/// ## Concurrency
/// One thread at a time: every run uses the same working files.
public final class Harness: @unchecked Sendable {
    /// What the storage part of one run saw: whether the file opened, and the typed errors of
    /// the steps that threw (`open`, `read`, `verify`, `write`).
    public struct StorageOutcome: Sendable {
        public var opened = false
        public var errors: [(step: String, error: StorageError)] = []
    }

    let directory: String
    /// The base files' images (`BaseFiles`).
    public let bases: [[UInt8]]
    let pageSizes: [Int]
    /// Whether the Realm-layer part runs (`STRATA_FUZZ_REALM=1`).
    public let realm: Bool
    let storagePath: String
    let realmPath: String
    /// Print what each run saw (`STRATA_FUZZ_VERBOSE=1`), for triage.
    let verbose = ProcessInfo.processInfo.environment["STRATA_FUZZ_VERBOSE"] == "1"

    /// Makes the base files in a new working directory (in `/dev/shm` where there is one: the
    /// open path syncs the files it recovers).
    /// - Parameter realm: also open each file through the Realm API.
    public init(realm: Bool) throws {
        self.realm = realm
        let parent = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        Self.removeAbandonedDirectories(in: parent)
        directory = parent + "/strata-fuzz-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        (bases, pageSizes) = try BaseFiles.make(in: directory)
        storagePath = directory + "/input.strata"
        realmPath = directory + "/input.realm"
        // No `Realm.violationHandler`: a violation reported while reading a damaged file stops the
        // process, as it does for users without a handler, and the fuzzer reports it.
    }

    /// Removes the working directories of fuzzing processes that are gone. A run that stops on a
    /// trap (a crash the fuzzer reports) never reaches its `atexit` clean-up, and in `/dev/shm`
    /// each abandoned directory (about 30 MiB of base files) holds memory until the next reboot.
    static func removeAbandonedDirectories(in parent: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for name in names where name.hasPrefix("strata-fuzz-") {
            let fields = name.split(separator: "-")
            guard fields.count >= 4, let pid = pid_t(fields[2]), pid != getpid() else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists.
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: parent + "/" + name)
            }
        }
    }

    /// Removes the working directory.
    public func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }

    /// The file input `data` describes.
    public func materialize(_ data: [UInt8]) -> (file: [UInt8], options: FuzzInput) {
        FuzzInput.materialize(data, bases: bases, pageSizes: pageSizes)
    }

    /// Runs one input: the storage part, then the Realm part when enabled.
    @discardableResult
    public func run(_ data: [UInt8]) -> StorageOutcome {
        let (file, options) = materialize(data)
        place(file, at: storagePath)
        let outcome = checkStorage(options)
        if verbose {
            print("storage: opened \(outcome.opened); errors: \(outcome.errors.map { "\($0.step): \($0.error)" })")
        }
        if realm {
            place(file, at: realmPath)
            checkRealm()
        }
        return outcome
    }

    func place(_ file: [UInt8], at path: String) {
        // A fresh lock file each time: a mutated data file under a stale lock state is another test.
        unlink(path + ".lock")
        unlink(path)
        guard FileManager.default.createFile(atPath: path, contents: Data(file)) else { fatalError("cannot write \(path)") }
    }

    /// Records a typed error; fails loudly on an error that is not one of the storage layer's.
    func expectTyped(_ error: Error, _ step: String, _ outcome: inout StorageOutcome) {
        guard let e = error as? StorageError else { fatalError("\(step): untyped error \(type(of: error)): \(error)") }
        outcome.errors.append((step, e))
    }

    func checkStorage(_ input: FuzzInput) -> StorageOutcome {
        var outcome = StorageOutcome()
        var o = Database.Options()
        o.create = false
        o.mapReserve = 16 << 20
        o.verifyAllOnOpen = input.verifyAll
        let db: Database
        do { db = try Database(path: storagePath, options: o) } catch {
            expectTyped(error, "open", &outcome)
            return outcome
        }
        outcome.opened = true
        defer { db.close() }
        var sink: UInt64 = 0
        var names: [String] = []
        do {
            try db.read { r in
                names = try r.treeNames()
                for name in names {
                    guard let t = try r.tree(named: name) else { continue }
                    var keys: [[UInt8]] = []
                    var n = 0
                    try r.forEach(in: t) { k, v in
                        sink &+= UInt64(k.count) &+ UInt64(v.count) &+ UInt64(v.first ?? 0)
                        if n % 17 == 0 && keys.count < 64 { keys.append(Array(k)) }
                        n += 1
                        return n < 200_000
                    }
                    for k in keys { sink &+= UInt64(try r.get(k, in: t)?.count ?? 0) }
                    _ = try r.get([0xFF, 0xFE], in: t)
                    var c = r.cursor(over: t)
                    try c.seek(to: keys.last)
                    var steps = 0
                    while steps < 50, let e = try c.next() { sink &+= UInt64(e.value.count); steps += 1 }
                }
            }
        } catch { expectTyped(error, "read", &outcome) }
        do { sink &+= UInt64(try db.verify().pageCount) } catch { expectTyped(error, "verify", &outcome) }
        if input.write {
            do {
                try db.write { txn in
                    let t = try txn.openTree(names.first ?? "fuzz", create: true)
                    for i in 0..<20 { try txn.put(BaseFiles.key(i * 5), BaseFiles.value(i, 10 + i * 40), in: t) }
                    for i in 0..<10 { _ = try txn.delete(BaseFiles.key(i * 3), in: t) }
                    try txn.put(BaseFiles.key(7), BaseFiles.value(7, 9000), in: t)
                    let extra = try txn.openTree("fuzz-extra", create: true)
                    try txn.put([1], [2], in: extra)
                }
                try db.read { r in
                    guard let t = try r.tree(named: names.first ?? "fuzz") else { return }
                    try r.forEach(in: t) { k, v in sink &+= UInt64(k.count + v.count); return true }
                }
                _ = try db.verify()
            } catch { expectTyped(error, "write", &outcome) }
        }
        if sink == 0x5EED { print("") }  // keeps the reads from being optimised away
        return outcome
    }

    func checkRealm() {
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: realmPath), objectTypes: [FuzzOwner.self, FuzzPet.self, FuzzAddress.self])
        do {
            let realm = try Realm(configuration: config)
            var sink = 0
            let owners = realm.objects(FuzzOwner.self)
            for o in owners {
                sink &+= o.id &+ o.name.utf8.count &+ o.tags.count &+ o.labels.count
                sink &+= o.address?.city.utf8.count ?? 0
                for p in o.pets { sink &+= p.age &+ p.name.utf8.count &+ (p.nickname?.count ?? 0) &+ p.owners.count }
            }
            let pets = realm.objects(FuzzPet.self)
            sink &+= pets.filter("age > %@", 3).count
            sink &+= pets.filter("name BEGINSWITH %@", "pet 1").count
            sink &+= pets.sorted(byKeyPath: "weight").first?.age ?? 0
            sink &+= realm.object(ofType: FuzzOwner.self, forPrimaryKey: 7)?.pets.count ?? 0
            if verbose { print("realm: \(owners.count) owners, \(pets.count) pets read") }
            if sink == 0x5EED { print("") }
        } catch {
            if verbose { print("realm: \(error)") }
            guard error is Realm.Error else { fatalError("realm: untyped error \(type(of: error)): \(error)") }
        }
    }
}
