import Foundation
import Strata
import StrataStorage

/// The valid files fuzz inputs start from, made the same way on every run (no clocks, no
/// random numbers), so an input means the same file on every machine:
///
/// 0. a storage file (4 KiB pages): a small tree, a tree of overflow values, an empty tree, after
///    commits that free pages (a non-empty free list); closed cleanly;
/// 1. a storage file copied while a handle had it open: a bulk commit (commit-list pages), then
///    deferred commits (not yet durable), so opening runs crash recovery;
/// 2. a storage file with 8 KiB pages, a two-level tree and overflow runs of two pages and more;
/// 3. a Realm file written with the `FuzzOwner`/`FuzzPet` models.
///
/// Each image is cut to its pages in use (the engine preallocates the file ahead of use).
enum BaseFiles {
    static let count = 4

    static func make(in directory: String) throws -> (images: [[UInt8]], pageSizes: [Int]) {
        var images: [[UInt8]] = []
        var sizes: [Int] = []
        for i in 0..<count {
            let path = directory + "/base-\(i)" + (i == 3 ? ".realm" : ".strata")
            let source = directory + "/base-\(i)-source.strata"
            for p in [path, path + ".lock", source, source + ".lock"] { try? FileManager.default.removeItem(atPath: p) }
            switch i {
            case 0: try makeSmall(path)
            case 1: try makeUnclean(path, source: source)
            case 2: try makeDeep(path)
            default: try makeRealm(path)
            }
            var image = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            // The page size the file records (the Realm layer chooses its own).
            let pageSize = Int(image[44]) | Int(image[45]) << 8 | Int(image[46]) << 16 | Int(image[47]) << 24
            // Keep the pages either meta record counts.
            var used = 2
            for slot in 0..<2 where image.count >= (slot + 1) * pageSize {
                let at = slot * pageSize + 64
                used = max(used, Int(image[at]) | Int(image[at + 1]) << 8 | Int(image[at + 2]) << 16 | Int(image[at + 3]) << 24)
            }
            if image.count > used * pageSize { image.removeSubrange((used * pageSize)...) }
            images.append(image)
            sizes.append(pageSize)
        }
        return (images, sizes)
    }

    static func key(_ i: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) } }

    static func value(_ i: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: i &* 7 &+ $0) } }

    static func options(pageSize: Int = 4096) -> Database.Options {
        var o = Database.Options()
        o.pageSize = pageSize
        o.mapReserve = 16 << 20
        return o
    }

    static func makeSmall(_ path: String) throws {
        let db = try Database(path: path, options: options())
        try db.write { txn in
            let small = try txn.openTree("small", create: true)
            for i in 0..<300 { try txn.put(key(i), value(i, 20 + i % 80), in: small) }
            let big = try txn.openTree("big", create: true)
            for (i, size) in [5000, 9000, 20000, 600].enumerated() { try txn.put(key(i), value(i, size), in: big) }
            _ = try txn.openTree("empty", create: true)
        }
        try db.write { txn in
            let small = try txn.openTree("small")
            for i in stride(from: 0, to: 300, by: 3) { _ = try txn.delete(key(i), in: small) }
            let big = try txn.openTree("big")
            try txn.put(key(1), value(99, 3000), in: big)
        }
        try db.write { txn in
            let small = try txn.openTree("small")
            for i in 300..<340 { try txn.put(key(i), value(i, 30), in: small) }
        }
        db.close()
    }

    static func makeUnclean(_ path: String, source: String) throws {
        let db = try Database(path: source, options: options())
        try db.write { txn in
            let t = try txn.openTree("bulk", create: true)
            for i in 0..<1500 { try txn.put(key(i), value(i, 40), in: t) }
        }
        for round in 0..<3 {
            try db.write(durability: .deferred) { txn in
                let t = try txn.openTree("bulk")
                for i in stride(from: round, to: 1500, by: 97) { try txn.put(key(i), value(i + round, 50), in: t) }
                let side = try txn.openTree("side\(round)", create: true)
                try txn.put(key(round), value(round, 10), in: side)
            }
        }
        try FileManager.default.copyItem(atPath: source, toPath: path)
        db.close()
    }

    static func makeDeep(_ path: String) throws {
        let db = try Database(path: path, options: options(pageSize: 8192))
        try db.write { txn in
            let t = try txn.openTree("deep", create: true)
            for i in 0..<2500 { try txn.put(key(i &* 2_654_435_761 % 100_003), value(i, 60 + i % 200), in: t) }
            let names = try txn.openTree("names", create: true)
            for i in 0..<12 { try txn.put(Array("name-\(i)".utf8), value(i, 9_000 + 1000 * i), in: names) }
        }
        db.close()
    }

    static func makeRealm(_ path: String) throws {
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [FuzzOwner.self, FuzzPet.self, FuzzAddress.self])
        try autoreleasepoolIfNeeded {
            let realm = try Realm(configuration: config)
            try realm.write {
                for i in 0..<40 {
                    let owner = FuzzOwner()
                    owner.id = i
                    owner.name = "owner \(i)" + String(repeating: "x", count: i * 7)
                    owner.tags.insert(objectsIn: ["t\(i % 3)", "u\(i % 5)"])
                    owner.labels["k\(i)"] = "v\(i)"
                    if i % 2 == 0 {
                        let a = FuzzAddress()
                        a.street = "\(i) Main St"
                        a.city = "C\(i % 4)"
                        owner.address = a
                    }
                    for j in 0..<(i % 4) {
                        let pet = FuzzPet()
                        pet.name = "pet \(i)-\(j)"
                        pet.age = (i * 3 + j) % 17
                        pet.weight = Double(i) * 1.5 + Double(j)
                        pet.born = Date(timeIntervalSince1970: Double(1_600_000_000 + i * 86_400))
                        pet.nickname = j == 0 ? nil : "n\(j)"
                        owner.pets.append(pet)
                    }
                    realm.add(owner)
                }
            }
        }
    }

    static func autoreleasepoolIfNeeded<T>(_ body: () throws -> T) rethrows -> T { try body() }
}
