import Foundation
import Strata
import StrataTestSupport
import XCTest

/// Damaged realm files through the Realm API: every damaged copy either fails to open with a
/// `Realm.Error`, or opens and then reports damage through `Realm.damageHandler` (reads return
/// empty values, writes throw), never stops the process and never reports it as the caller's
/// mistake (a violation such as "Object has been deleted or invalidated").
///
/// The copies are made from one file with links, lists, embedded objects, sets, maps, mixed
/// values, primary keys and an index, by a seeded generator: flipped bytes, zeroed pages, pages
/// copied over others, swapped pages, a truncated file, damaged meta records. CI runs 300;
/// `STRATA_DAMAGE_TRIALS=1500` runs more.
final class DamagedFileTests: TemporaryDirectoryTestCase {
    var dir: String { temporaryDirectory.path }

    override func setUp() {
    }

    override func tearDown() {
        Realm.violationHandler = nil
        Realm.damageHandler = nil
    }

    private func configuration(_ path: String) -> Realm.Configuration {
        Realm.Configuration(
            fileURL: URL(fileURLWithPath: path),
            objectTypes: [Dog.self, DogToy.self, Person.self, Address.self, Item.self])
    }

    /// Writes the source file and returns its bytes and page size.
    private func makeSource() throws -> ([UInt8], Int) {
        let path = dir + "/source.realm"
        try {
            let realm = try Realm(configuration: configuration(path))
            try realm.write {
                var toys: [DogToy] = []
                for i in 0..<40 { toys.append(realm.create(DogToy.self, value: ["name": "toy-\(i)"])) }
                var dogs: [Dog] = []
                for i in 0..<400 {
                    let d = realm.create(
                        Dog.self,
                        value: [
                            "name": "dog-\(i)-" + String(repeating: "x", count: i % 40), "age": i % 17,
                            "breed": i % 3 == 0 ? nil : "breed-\(i % 7)",
                        ])
                    d.favoriteToy = i % 4 == 0 ? nil : toys[i % toys.count]
                    dogs.append(d)
                }
                for i in 0..<120 {
                    let p = realm.create(Person.self, value: ["id": i, "name": "person-\(i)"])
                    for k in 0..<(i % 9) { p.dogs.append(dogs[(i * 7 + k * 13) % dogs.count]) }
                    if i % 2 == 0 {
                        let a = Address()
                        a.street = "street \(i)"
                        a.city = "city \(i % 5)"
                        p.address = a
                    }
                }
                for i in 0..<200 {
                    let item = Item()
                    item._id = ObjectId.generate()
                    item.status = ["open", "done", "blocked"][i % 3]
                    item.title = String(repeating: "t", count: i % 300)
                    item.priority = i
                    item.score = Double(i) / 3
                    item.due = i % 2 == 0 ? Date(timeIntervalSince1970: Double(i) * 1000) : nil
                    for t in 0..<(i % 5) { item.tags.insert("tag-\(t)") }
                    for t in 0..<(i % 4) { item.labels["k\(t)"] = "v\(t)-\(i)" }
                    item.extra = i % 2 == 0 ? .int(i) : .string("s\(i)")
                    realm.add(item)
                }
            }
        }()
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let pageSize = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 44, as: UInt32.self).littleEndian) }
        return (bytes, pageSize)
    }

    /// Reads everything a typical app reads, so that damage anywhere is reached.
    private func exercise(_ realm: Realm) {
        for dog in realm.objects(Dog.self) {
            _ = dog.name; _ = dog.age; _ = dog.breed
            _ = dog.favoriteToy?.name
            _ = dog.owners.count
        }
        for person in realm.objects(Person.self) {
            _ = person.name; _ = person.id
            _ = person.dogs.count
            for d in person.dogs { _ = d.name }
            _ = person.address?.street
        }
        for item in realm.objects(Item.self) {
            _ = item._id; _ = item.status; _ = item.title; _ = item.priority; _ = item.score; _ = item.due
            _ = Array(item.tags); _ = item.labels.count; _ = item.extra
        }
        _ = realm.objects(Dog.self).where { $0.age > 5 }.count
        _ = realm.objects(Dog.self).filter("name BEGINSWITH %@", "dog-1").count
        _ = realm.objects(Dog.self).sorted(byKeyPath: "age").first?.name
        _ = realm.objects(Item.self).where { $0.status == "open" }.count
        _ = realm.objects(Item.self).where { $0.score > 10 }.map(\.title).count
        _ = realm.object(ofType: Person.self, forPrimaryKey: 17)?.name
        _ = realm.objects(Person.self).where { $0.dogs.age > 10 }.count
        do {
            try realm.write { realm.add(Dog(value: ["name": "new", "age": 1])) }
        } catch {
            // A write may fail on a damaged file; it must throw, which it did.
        }
    }

    /// A page of `Dog` objects zeroed: the reads that reach it return empty values, the damage
    /// is reported once (with `invalidDatabase` and what to do), every later write to the file
    /// throws that error, and nothing is written to the file.
    func testDamageFoundByAReadIsReportedOnceAndWritesAreRefused() throws {
        let (source, pageSize) = try makeSource()
        var bytes = source
        let needle = Array("dog-200-".utf8)
        let at = try XCTUnwrap(
            bytes.indices.first { i in i + needle.count <= bytes.count && Array(bytes[i..<(i + needle.count)]) == needle
            })
        let page = at / pageSize
        for i in (page * pageSize)..<((page + 1) * pageSize) { bytes[i] = 0 }
        let path = dir + "/zeroed.realm"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reports = MessageLog()
        let violations = MessageLog()
        Realm.damageHandler = { reports.record("\($0.realmCode) \($0.message)") }
        Realm.violationHandler = { violations.record($0) }
        try {
            let realm = try Realm(configuration: configuration(path))
            var names = 0
            for dog in realm.objects(Dog.self) where !dog.name.isEmpty { names += 1 }
            XCTAssertLessThan(names, 400, "the zeroed page's dogs cannot be read")
            XCTAssertEqual(reports.messages.count, 1, "\(reports.messages)")
            let report = try XCTUnwrap(reports.messages.first)
            XCTAssertTrue(report.hasPrefix("invalidDatabase"), report)
            XCTAssertTrue(report.contains("damaged") && report.contains("backup"), report)
            XCTAssertThrowsError(try realm.write { realm.add(Dog(value: ["name": "new"])) }) { error in
                XCTAssertEqual((error as? Realm.Error)?.realmCode, .invalidDatabase, "\(error)")
            }
            XCTAssertEqual(violations.messages, [])
            // `beginWrite()` cannot throw (as in RealmSwift): it reports the damage as a violation
            // and begins nothing.
            realm.beginWrite()
            XCTAssertFalse(realm.isInWriteTransaction)
            XCTAssertEqual(violations.messages.count, 1)
            XCTAssertTrue(violations.messages.first?.contains("is damaged") ?? false, "\(violations.messages)")
            _ = realm.objects(Dog.self).count
            XCTAssertEqual(reports.messages.count, 1, "reported once per file")
        }()
        XCTAssertEqual(
            try Array(Data(contentsOf: URL(fileURLWithPath: path))), bytes, "nothing was written to the damaged file")
    }

    func testDamagedCopiesNeverStopTheProcessNorBlameTheCaller() throws {
        let trials = Int(ProcessInfo.processInfo.environment["STRATA_DAMAGE_TRIALS"] ?? "") ?? 300
        let (source, pageSize) = try makeSource()
        let pages = source.count / pageSize
        let violations = MessageLog()
        let damage = MessageLog()
        Realm.violationHandler = { violations.record($0) }
        Realm.damageHandler = { damage.record($0.message) }
        var rng = SplitMix(seed: 2026)
        var refused = 0, opened = 0, reported = 0
        var violationTrials: [String] = []
        var changedByFailedOpen: [String] = []
        for trial in 0..<trials {
            var bytes = source
            let kind = Int(rng.next() % 7)
            let what: String
            func randomPage(from first: Int = 2) -> Int { first + Int(rng.next() % UInt64(max(1, pages - first))) }
            switch kind {
            case 0:
                let n = 1 + Int(rng.next() % 8)
                for _ in 0..<n {
                    bytes[2 * pageSize + Int(rng.next() % UInt64(bytes.count - 2 * pageSize))] ^= UInt8(
                        1 + rng.next() % 255)
                }
                what = "\(n) bytes flipped"
            case 1:
                let p = randomPage()
                for i in 0..<pageSize { bytes[p * pageSize + i] = 0 }
                what = "page \(p) zeroed"
            case 2:
                let a = randomPage(), b = randomPage()
                for i in 0..<pageSize { bytes.swapAt(a * pageSize + i, b * pageSize + i) }
                what = "pages \(a) and \(b) swapped"
            case 3:
                let a = randomPage(), b = randomPage()
                for i in 0..<pageSize { bytes[b * pageSize + i] = bytes[a * pageSize + i] }
                what = "page \(a) copied over \(b)"
            case 4:
                let length = Int(rng.next() % UInt64(bytes.count))
                bytes.removeLast(bytes.count - length)
                what = "truncated to \(length) bytes"
            case 5:
                let slot = Int(rng.next() % 2)
                let off = slot * pageSize + 32 + Int(rng.next() % 80)
                bytes[off] ^= UInt8(1 + rng.next() % 255)
                what = "meta slot \(slot) byte \(off) flipped"
            default:
                // One byte changed inside a page's body, past its header.
                let p = randomPage()
                bytes[p * pageSize + 32 + Int(rng.next() % UInt64(pageSize - 32))] ^= UInt8(1 + rng.next() % 255)
                what = "page \(p) changed in its body"
            }
            let path = dir + "/damaged-\(trial).realm"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            violations.clear()
            damage.clear()
            do {
                let realm = try Realm(configuration: configuration(path))
                opened += 1
                exercise(realm)
            } catch {
                XCTAssertEqual(
                    (error as? Realm.Error)?.realmCode, .invalidDatabase, "trial \(trial) (\(what)): \(error)")
                refused += 1
                let after = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
                if after != bytes { changedByFailedOpen.append("trial \(trial) (\(what))") }
            }
            if !damage.messages.isEmpty { reported += 1 }
            if !violations.messages.isEmpty {
                violationTrials.append("trial \(trial) (\(what)): \(violations.messages.prefix(2))")
            }
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".lock")
        }
        XCTAssertEqual(
            violationTrials, [], "\(violationTrials.count) damaged copies were reported as the caller's mistake")
        XCTAssertEqual(changedByFailedOpen, [], "a failed open wrote to the file")
        print(
            "\(name): \(trials) damaged copies: \(refused) refused at open, \(opened) opened (\(reported) reported damage while reading), \(violationTrials.count) violations, 0 traps"
        )
    }
}

/// Messages recorded from any thread.
private final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func record(_ m: String) { lock.lock(); list.append(m); lock.unlock() }
    func clear() { lock.lock(); list.removeAll(); lock.unlock() }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
