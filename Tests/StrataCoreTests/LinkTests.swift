import XCTest
@testable import StrataCore
import StrataStorage

/// Links, backlinks, link cleanup on delete and embedded-object cascades.
final class LinkTests: CoreTestCase {
    static let dog = StoreTable(
        name: "Dog",
        columns: [
            StoreColumn(name: "name", type: .string, isIndexed: true),
            StoreColumn(name: "owners", type: .linkingObjects, targetTable: "Person", originProperty: "dogs"),
        ])
    static let person = StoreTable(
        name: "Person",
        columns: [
            StoreColumn(name: "id", type: .int, isPrimaryKey: true),
            StoreColumn(name: "dog", type: .link, isNullable: true, targetTable: "Dog"),
            StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog"),
            StoreColumn(name: "dogSet", type: .link, collection: .set, targetTable: "Dog"),
            StoreColumn(name: "dogMap", type: .link, collection: .map, isNullable: true, targetTable: "Dog"),
            StoreColumn(name: "friend", type: .link, isNullable: true, targetTable: "Person"),
            StoreColumn(name: "address", type: .link, isNullable: true, targetTable: "Address"),
            StoreColumn(name: "addresses", type: .link, collection: .list, targetTable: "Address"),
        ])
    static let kennel = StoreTable(
        name: "Kennel",
        columns: [
            StoreColumn(name: "code", type: .string, isPrimaryKey: true),
            StoreColumn(name: "dog", type: .link, isNullable: true, targetTable: "Dog"),
            StoreColumn(name: "dogs", type: .link, collection: .list, targetTable: "Dog"),
        ])
    static let address = StoreTable(
        name: "Address", isEmbedded: true,
        columns: [
            StoreColumn(name: "street", type: .string),
            StoreColumn(name: "geo", type: .link, isNullable: true, targetTable: "Geo"),
        ])
    static let geo = StoreTable(name: "Geo", isEmbedded: true, columns: [StoreColumn(name: "lat", type: .double)])
    static let tables = [dog, person, kennel, address, geo]

    // Column indexes of Person.
    let pDog = 1, pDogs = 2, pDogSet = 3, pDogMap = 4, pFriend = 5, pAddress = 6, pAddresses = 7

    func personValues(
        _ id: Int64, dog: StoreValue = .null, dogs: [Int64] = [], dogSet: [Int64] = [],
        dogMap: [String: StoreValue] = [:],
        friend: StoreValue = .null, address: StoreValue = .null, addresses: [Int64] = []
    ) -> [StoreValue] {
        [
            .int(id), dog, .list(dogs.map(StoreValue.link)), .list(dogSet.map(StoreValue.link)), .map(dogMap), friend,
            address,
            .list(addresses.map(StoreValue.link)),
        ]
    }

    /// The backlink entries every link in the store implies: `b:<target>` key -> u32 count.
    func impliedBacklinks(_ txn: StoreTransaction) throws -> [String: [[UInt8]: [UInt8]]] {
        var out: [String: [[UInt8]: [UInt8]]] = [:]
        for origin in Self.tables {
            try txn.forEachRow(origin) { r in
                for (c, column) in origin.columns.enumerated() where column.type == .link {
                    var targets: [Int64] = []
                    switch r.value(c) {
                    case .link(let k): targets = [k]
                    case .list(let l): targets = l.compactMap { if case .link(let k) = $0 { k } else { nil } }
                    case .map(let m): targets = m.values.compactMap { if case .link(let k) = $0 { k } else { nil } }
                    default: break
                    }
                    for t in targets {
                        let key =
                            keyBytes(t) + Array(origin.name.utf8) + [0] + Array(column.name.utf8) + [0]
                            + keyBytes(r.key)
                        let tree = "b:" + column.targetTable!
                        let n = out[tree]?[key].map { $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } } ?? 0
                        out[tree, default: [:]][key] = le32(n + 1)
                    }
                }
                return true
            }
        }
        return out
    }

    /// Backlink trees equal what the links imply, no link dangles, and every embedded object has
    /// exactly one owner.
    func checkLinkInvariants(
        _ txn: StoreTransaction, _ context: String = "", file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let implied = try impliedBacklinks(txn)
        for target in Self.tables {
            let actual = Dictionary(uniqueKeysWithValues: try entries(txn, tree: target.backlinkTree))
            XCTAssertEqual(
                actual, implied[target.backlinkTree] ?? [:], "\(context): \(target.backlinkTree)", file: file,
                line: line)
            for (key, _) in implied[target.backlinkTree] ?? [:] {
                let k = key.withUnsafeBytes { decodeObjectKey($0) }
                XCTAssertTrue(
                    try txn.exists(target, key: k), "\(context): dangling link to \(target.name) \(k)", file: file,
                    line: line)
            }
            if target.isEmbedded {
                try txn.forEachRow(target) { r in
                    let owners = try txn.allBacklinks(to: target, key: r.key)
                    XCTAssertEqual(
                        owners.count, 1, "\(context): \(target.name) \(r.key) has owners \(owners)", file: file,
                        line: line)
                    return true
                }
            }
        }
    }

    // MARK: Backlinks

    func testToOneListSetAndMapLinksCreateBacklinks() throws {
        try write(Self.tables) { txn in
            for n in ["a", "b", "c"] { try txn.insert(into: Self.dog, values: [.string(n), .null]) }
            try txn.insert(
                into: Self.person,
                values: personValues(
                    7, dog: .link(0), dogs: [1, 1, 2], dogSet: [2], dogMap: ["x": .link(0), "y": .link(2)]))
            try txn.insert(into: Self.person, values: personValues(-3, dog: .link(0), dogs: [2]))
            try txn.insert(into: Self.kennel, values: [.string("K"), .link(1), .list([.link(1)])])
        }
        try read(Self.tables) { r in
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 0, from: "Person", column: "dog"), [-3, 7])
            // one entry per object
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 1, from: "Person", column: "dogs"), [7])
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 1, from: "Kennel", column: "dog"), [0])
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 2, from: "Person", column: "dogs"), [-3, 7])
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 2, from: "Person", column: "dogMap"), [7])
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 2, from: "Person", column: "dog"), [])
            // no prefix matches
            XCTAssertEqual(try r.backlinks(to: Self.dog, key: 0, from: "Person", column: "do"), [])
            // In key order: origin table, then column name, then origin key.
            let all = try r.allBacklinks(to: Self.dog, key: 2).map { "\($0.table).\($0.column).\($0.key)" }
            XCTAssertEqual(all, ["Person.dogMap.7", "Person.dogSet.7", "Person.dogs.-3", "Person.dogs.7"])
            XCTAssertEqual(
                try r.allBacklinks(to: Self.dog, key: 1).map { "\($0.table).\($0.column).\($0.key)" },
                ["Kennel.dog.0", "Kennel.dogs.0", "Person.dogs.7"])
            // The entry's value counts the links (Person 7 holds dog 1 twice in `dogs`).
            let entry = keyBytes(1) + Array("Person".utf8) + [0] + Array("dogs".utf8) + [0] + keyBytes(7)
            let value = try entry.withUnsafeBytes { try r.get($0, tree: "b:Dog").map(Array.init) }
            XCTAssertEqual(value, le32(2))
            XCTAssertEqual(try r.count(tree: "b:Dog"), 10)
            try checkLinkInvariants(r)
        }
    }

    func testUpdatingALinkColumnMovesItsBacklinks() throws {
        try write(Self.tables) { txn in
            for n in ["a", "b", "c"] { try txn.insert(into: Self.dog, values: [.string(n), .null]) }
            try txn.insert(
                into: Self.person, values: personValues(1, dog: .link(0), dogs: [0, 0, 1], dogMap: ["k": .link(2)]))
        }
        try write(Self.tables) { txn in
            XCTAssertEqual(try txn.set(Self.person, key: 1, column: pDog, to: .link(1)), .link(0))
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 0, from: "Person", column: "dog"), [])
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 1, from: "Person", column: "dog"), [1])
            // Removing one of two equal elements keeps the entry with count 1.
            try txn.set(Self.person, key: 1, column: pDogs, to: .list([.link(0), .link(1)]))
            let entry = keyBytes(0) + Array("Person".utf8) + [0] + Array("dogs".utf8) + [0] + keyBytes(1)
            XCTAssertEqual(try entry.withUnsafeBytes { try txn.get($0, tree: "b:Dog").map(Array.init) }, le32(1))
            try txn.set(Self.person, key: 1, column: pDogs, to: .list([.link(1)]))
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 0, from: "Person", column: "dogs"), [])
            try txn.set(Self.person, key: 1, column: pDogMap, to: .map(["k": .link(0), "j": .link(0)]))
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 2, from: "Person", column: "dogMap"), [])
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 0, from: "Person", column: "dogMap"), [1])
            try txn.set(Self.person, key: 1, column: pDog, to: .null)
            XCTAssertEqual(try txn.backlinks(to: Self.dog, key: 1, from: "Person", column: "dog"), [])
            try checkLinkInvariants(txn)
        }
        try read(Self.tables) { r in
            XCTAssertEqual(
                try r.row(Self.person, key: 1)?.values(),
                personValues(1, dogs: [1], dogMap: ["k": .link(0), "j": .link(0)]))
            try checkLinkInvariants(r)
        }
    }

    // MARK: Deleting targets and origins

    func testDeletingATargetRemovesEveryLinkToIt() throws {
        try write(Self.tables) { txn in
            for n in ["a", "b", "c"] { try txn.insert(into: Self.dog, values: [.string(n), .null]) }
            try txn.insert(
                into: Self.person,
                values: personValues(
                    1, dog: .link(0), dogs: [0, 1, 0, 2], dogSet: [2, 0],
                    dogMap: ["x": .link(0), "y": .link(1), "z": .null]))
            try txn.insert(into: Self.person, values: personValues(2, dog: .link(1), dogs: [0]))
            try txn.insert(into: Self.kennel, values: [.string("K"), .link(0), .list([.link(0), .link(0)])])
        }
        try write(Self.tables) { txn in XCTAssertTrue(try txn.delete(Self.dog, key: 0)) }
        try read(Self.tables) { r in
            XCTAssertNil(try r.row(Self.dog, key: 0))
            XCTAssertEqual(
                try r.row(Self.person, key: 1)?.values(),
                personValues(1, dogs: [1, 2], dogSet: [2], dogMap: ["x": .null, "y": .link(1), "z": .null]))
            XCTAssertEqual(try r.row(Self.person, key: 2)?.values(), personValues(2, dog: .link(1)))
            XCTAssertEqual(try r.row(Self.kennel, key: 0)?.values(), [.string("K"), .null, .list([])])
            XCTAssertEqual(try r.allBacklinks(to: Self.dog, key: 0).count, 0)
            XCTAssertEqual(try r.indexLookup(Self.dog, column: 0, equals: .string("a")), [])
            try checkLinkInvariants(r)
        }
        // deleteAll clears the rest.
        try write(Self.tables) { txn in try txn.deleteAll(Self.dog) }
        try read(Self.tables) { r in
            XCTAssertEqual(
                try r.row(Self.person, key: 1)?.values(), personValues(1, dogMap: ["x": .null, "y": .null, "z": .null]))
            XCTAssertEqual(try r.row(Self.person, key: 2)?.values(), personValues(2))
            XCTAssertEqual(try r.count(tree: "b:Dog"), 0)
            XCTAssertEqual(try r.count(tree: Self.dog.indexTree(0)), 0)
            try checkLinkInvariants(r)
        }
        try verifyDatabase()
    }

    func testDeletingAnOriginRemovesItsBacklinks() throws {
        try write(Self.tables) { txn in
            try txn.insert(into: Self.dog, values: [.string("a"), .null])
            try txn.insert(
                into: Self.person, values: personValues(1, dog: .link(0), dogs: [0, 0], dogMap: ["x": .link(0)]))
            try txn.insert(into: Self.person, values: personValues(2, dog: .link(0)))
        }
        try write(Self.tables) { txn in XCTAssertTrue(try txn.delete(Self.person, key: 1)) }
        try read(Self.tables) { r in
            XCTAssertEqual(
                try r.allBacklinks(to: Self.dog, key: 0).map { "\($0.table).\($0.column).\($0.key)" }, ["Person.dog.2"])
            XCTAssertEqual(try r.row(Self.dog, key: 0)?.values(), [.string("a"), .null])
            try checkLinkInvariants(r)
        }
    }

    func testLinksWithinOneTableIncludingToItself() throws {
        try write(Self.tables) { txn in
            try txn.insert(into: Self.person, values: personValues(1, friend: .link(1)))  // itself
            try txn.insert(into: Self.person, values: personValues(2, friend: .link(3)))
            try txn.insert(into: Self.person, values: personValues(3, friend: .link(2)))
        }
        try read(Self.tables) { r in
            XCTAssertEqual(try r.backlinks(to: Self.person, key: 1, from: "Person", column: "friend"), [1])
            try checkLinkInvariants(r)
        }
        try write(Self.tables) { txn in
            XCTAssertTrue(try txn.delete(Self.person, key: 1))
            XCTAssertTrue(try txn.delete(Self.person, key: 2))
        }
        try read(Self.tables) { r in
            XCTAssertEqual(try r.count(Self.person), 1)
            XCTAssertEqual(try r.row(Self.person, key: 3)?.values(), personValues(3))
            XCTAssertEqual(try r.count(tree: "b:Person"), 0)
            try checkLinkInvariants(r)
        }
        try verifyDatabase()
    }

    // MARK: Embedded objects

    /// An owner with an embedded address (which embeds a geo point) and a list of addresses.
    func insertOwner(
        _ txn: StoreTransaction, id: Int64, street: String, more: [String] = []
    ) throws -> (address: Int64, geo: Int64, list: [Int64]) {
        let g = try txn.insert(into: Self.geo, values: [.double(Double(id))])
        let a = try txn.insert(into: Self.address, values: [.string(street), .link(g)])
        let list = try more.map { try txn.insert(into: Self.address, values: [.string($0), .null]) }
        try txn.insert(into: Self.person, values: personValues(id, address: .link(a), addresses: list))
        return (a, g, list)
    }

    func testEmbeddedObjectsAreDeletedWithTheirParent() throws {
        let (kept, deleted) = try write(Self.tables) { txn in
            (
                try insertOwner(txn, id: 1, street: "one", more: ["1a", "1b"]),
                try insertOwner(txn, id: 2, street: "two", more: ["2a"])
            )
        }
        try write(Self.tables) { txn in XCTAssertTrue(try txn.delete(Self.person, key: 2)) }
        try read(Self.tables) { r in
            XCTAssertNil(try r.row(Self.address, key: deleted.address))
            XCTAssertNil(try r.row(Self.geo, key: deleted.geo))  // two levels down
            for a in deleted.list { XCTAssertNil(try r.row(Self.address, key: a)) }
            XCTAssertEqual(try r.count(Self.address), 3)
            XCTAssertEqual(try r.count(Self.geo), 1)
            XCTAssertEqual(try r.row(Self.address, key: kept.address)?.values(), [.string("one"), .link(kept.geo)])
            try checkLinkInvariants(r)
        }
        try write(Self.tables) { txn in try txn.deleteAll(Self.person) }
        try read(Self.tables) { r in
            XCTAssertEqual(try r.count(Self.address), 0)
            XCTAssertEqual(try r.count(Self.geo), 0)
            XCTAssertEqual(try r.count(tree: "b:Address"), 0)
            XCTAssertEqual(try r.count(tree: "b:Geo"), 0)
        }
        try verifyDatabase()
    }

    func testReplacedEmbeddedObjectsAreDeleted() throws {
        let owner = try write(Self.tables) { txn in
            try insertOwner(txn, id: 1, street: "old", more: ["l0", "l1", "l2"])
        }
        let (newAddress, newListItem) = try write(Self.tables) { txn in
            let a = try txn.insert(into: Self.address, values: [.string("new"), .null])
            try txn.set(Self.person, key: 1, column: pAddress, to: .link(a))
            let l3 = try txn.insert(into: Self.address, values: [.string("l3"), .null])
            // Keep l2 and l0 (reordered), drop l1, add l3.
            try txn.set(
                Self.person, key: 1, column: pAddresses,
                to: .list([.link(owner.list[2]), .link(l3), .link(owner.list[0])]))
            return (a, l3)
        }
        try read(Self.tables) { r in
            XCTAssertNil(try r.row(Self.address, key: owner.address))
            XCTAssertNil(try r.row(Self.geo, key: owner.geo))
            XCTAssertNil(try r.row(Self.address, key: owner.list[1]))
            XCTAssertEqual(try r.row(Self.address, key: owner.list[0])?.values(), [.string("l0"), .null])
            XCTAssertEqual(try r.row(Self.address, key: owner.list[2])?.values(), [.string("l2"), .null])
            XCTAssertEqual(
                try r.row(Self.person, key: 1)?.values(),
                personValues(1, address: .link(newAddress), addresses: [owner.list[2], newListItem, owner.list[0]]))
            XCTAssertEqual(try r.count(Self.address), 4)
            try checkLinkInvariants(r)
        }
        // Setting the link to null deletes the embedded object too.
        try write(Self.tables) { txn in try txn.set(Self.person, key: 1, column: pAddress, to: .null) }
        try read(Self.tables) { r in
            XCTAssertNil(try r.row(Self.address, key: newAddress))
            XCTAssertEqual(try r.count(Self.address), 3)
            try checkLinkInvariants(r)
        }
    }

    func testDeletingAnEmbeddedObjectDirectlyUnlinksItFromItsParent() throws {
        let owner = try write(Self.tables) { txn in try insertOwner(txn, id: 1, street: "s", more: ["l0", "l1"]) }
        try write(Self.tables) { txn in
            XCTAssertTrue(try txn.delete(Self.address, key: owner.address))
            XCTAssertTrue(try txn.delete(Self.address, key: owner.list[0]))
        }
        try read(Self.tables) { r in
            XCTAssertEqual(try r.row(Self.person, key: 1)?.values(), personValues(1, addresses: [owner.list[1]]))
            XCTAssertNil(try r.row(Self.geo, key: owner.geo))
            XCTAssertEqual(try r.count(Self.address), 1)
            XCTAssertEqual(try r.count(Self.geo), 0)
            try checkLinkInvariants(r)
        }
        try verifyDatabase()
    }

    // MARK: Abort

    func testAbortLeavesLinksAndBacklinksExactlyAsBefore() throws {
        try write(Self.tables) { txn in
            for i in 0..<20 { try txn.insert(into: Self.dog, values: [.string("d\(i % 4)"), .null]) }
            for i in 0..<10 {
                _ = try insertOwner(txn, id: Int64(i), street: "s\(i)", more: ["x\(i)"])
                try txn.set(
                    Self.person, key: Int64(i), column: pDogs,
                    to: .list([.link(Int64(i)), .link(Int64(i + 1)), .link(Int64(i))]))
                try txn.set(Self.person, key: Int64(i), column: pFriend, to: .link(Int64((i + 1) % 10)))
            }
        }
        let before = try snapshot()
        let txn = try beginWrite(Self.tables)
        try txn.delete(Self.dog, key: 3)
        try txn.delete(Self.person, key: 4)
        try txn.set(Self.person, key: 5, column: pDog, to: .link(9))
        _ = try insertOwner(txn, id: 50, street: "new")
        try txn.set(Self.person, key: 6, column: pAddresses, to: .list([]))
        try txn.deleteAll(Self.kennel)
        try txn.insert(into: Self.kennel, values: [.string("K"), .link(1), .list([.link(2)])])
        try checkLinkInvariants(txn, "inside the transaction")
        txn.write!.abort()
        XCTAssertEqual(try snapshot(), before)
        try read(Self.tables) { try checkLinkInvariants($0) }
    }

    // MARK: Random

    /// Random link changes and deletes against a model that applies Realm's rules: deleting an
    /// object nulls to-one links and map values pointing at it and removes it from lists and sets;
    /// embedded objects die with their owner or when replaced.
    func testRandomLinkChangesMatchAModel() throws {
        var rng = CoreRandom(seed: 21)
        var model: [String: [Int64: [StoreValue]]] = [:]
        let byName = Dictionary(uniqueKeysWithValues: Self.tables.map { ($0.name, $0) })

        func linkTargets(_ v: StoreValue) -> [Int64] {
            switch v {
            case .link(let k): [k]
            case .list(let l): l.compactMap { if case .link(let k) = $0 { k } else { nil } }
            case .map(let m): m.values.compactMap { if case .link(let k) = $0 { k } else { nil } }
            default: []
            }
        }
        func modelDelete(_ m: inout [String: [Int64: [StoreValue]]], _ table: StoreTable, _ key: Int64) {
            guard let values = m[table.name]?[key] else { return }
            m[table.name]![key] = nil
            for origin in Self.tables {
                for (c, column) in origin.columns.enumerated()
                where column.type == .link && column.targetTable == table.name {
                    for (k, row) in m[origin.name] ?? [:] {
                        switch row[c] {
                        case .link(let t) where t == key: m[origin.name]![k]![c] = .null
                        case .list(let l): m[origin.name]![k]![c] = .list(l.filter { $0 != .link(key) })
                        case .map(let e): m[origin.name]![k]![c] = .map(e.mapValues { $0 == .link(key) ? .null : $0 })
                        default: break
                        }
                    }
                }
            }
            for (c, column) in table.columns.enumerated() where column.type == .link {
                if let target = byName[column.targetTable!], target.isEmbedded {
                    for t in linkTargets(values[c]) { modelDelete(&m, target, t) }
                }
            }
        }
        func modelSet(
            _ m: inout [String: [Int64: [StoreValue]]], _ table: StoreTable, _ key: Int64, _ c: Int, _ value: StoreValue
        ) {
            let old = m[table.name]![key]![c]
            m[table.name]![key]![c] = value
            if let target = byName[table.columns[c].targetTable ?? ""], target.isEmbedded {
                let kept = Set(linkTargets(value))
                for t in linkTargets(old) where !kept.contains(t) { modelDelete(&m, target, t) }
            }
        }

        var ops = 0, cascades = 0
        for n in 0..<150 {
            let txn = try beginWrite(Self.tables)
            var working = model
            func some(_ table: StoreTable) -> Int64? {
                working[table.name].flatMap { $0.keys.randomElement(using: &rng) }
            }
            func someDogs() -> [Int64] { (0..<Int.random(in: 0..<4, using: &rng)).compactMap { _ in some(Self.dog) } }
            func newAddress() throws -> Int64 {
                var geo: StoreValue = .null
                if Bool.random(using: &rng) {
                    let g = try txn.insert(into: Self.geo, values: [.double(1)])
                    working["Geo", default: [:]][g] = [.double(1)]
                    geo = .link(g)
                }
                let a = try txn.insert(into: Self.address, values: [.string("s"), geo])
                working["Address", default: [:]][a] = [.string("s"), geo]
                return a
            }
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                ops += 1
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<20:
                    let k = try txn.insert(into: Self.dog, values: [.string("d"), .null])
                    working["Dog", default: [:]][k] = [.string("d"), .null]
                case 20..<35:
                    let id = Int64.random(in: 0..<30, using: &rng)
                    guard working["Person"]?[id] == nil else { continue }
                    let dogMap = Dictionary(
                        uniqueKeysWithValues: someDogs().enumerated().map {
                            ("k\($0.offset)", StoreValue.link($0.element))
                        })
                    let values = personValues(
                        id, dog: some(Self.dog).map(StoreValue.link) ?? .null, dogs: someDogs(),
                        dogSet: Array(Set(someDogs())).sorted(),
                        dogMap: dogMap, friend: some(Self.person).map(StoreValue.link) ?? .null,
                        address: Bool.random(using: &rng) ? .link(try newAddress()) : .null,
                        addresses: try (0..<Int.random(in: 0..<3, using: &rng)).map { _ in try newAddress() })
                    try txn.insert(into: Self.person, values: values)
                    working["Person", default: [:]][id] = values
                case 35..<42:
                    let code = "k\(Int.random(in: 0..<10, using: &rng))"
                    guard !(working["Kennel"] ?? [:]).values.contains(where: { $0[0] == .string(code) }) else {
                        continue
                    }
                    let values: [StoreValue] = [
                        .string(code), some(Self.dog).map(StoreValue.link) ?? .null,
                        .list(someDogs().map(StoreValue.link)),
                    ]
                    let k = try txn.insert(into: Self.kennel, values: values)
                    working["Kennel", default: [:]][k] = values
                case 42..<70:
                    guard let p = some(Self.person) else { continue }
                    let c = Int.random(in: 1...7, using: &rng)
                    let value: StoreValue
                    switch c {
                    case pDog: value = some(Self.dog).map(StoreValue.link) ?? .null
                    case pDogs: value = .list(someDogs().map(StoreValue.link))
                    case pDogSet: value = .list(Array(Set(someDogs())).sorted().map(StoreValue.link))
                    case pDogMap:
                        value = .map(
                            Dictionary(
                                uniqueKeysWithValues: someDogs().enumerated().map {
                                    ("k\($0.offset % 2)\($0.offset)", StoreValue.link($0.element))
                                }))
                    case pFriend: value = some(Self.person).map(StoreValue.link) ?? .null
                    case pAddress: value = Bool.random(using: &rng) ? .link(try newAddress()) : .null
                    default:
                        // Keep some of the current addresses, add new ones.
                        guard case .list(let current) = working["Person"]![p]![pAddresses] else {
                            return XCTFail("addresses")
                        }
                        value = .list(
                            try current.filter { _ in Bool.random(using: &rng) }
                                + (0..<Int.random(in: 0..<2, using: &rng)).map { _ in .link(try newAddress()) })
                    }
                    let before = working.values.map(\.count).reduce(0, +)
                    try txn.set(Self.person, key: p, column: c, to: value)
                    modelSet(&working, Self.person, p, c, value)
                    if working.values.map(\.count).reduce(0, +) < before { cascades += 1 }
                default:
                    let table = [Self.dog, Self.dog, Self.person, Self.kennel, Self.address].randomElement(using: &rng)!
                    guard let k = some(table) else { continue }
                    XCTAssertTrue(try txn.delete(table, key: k))
                    let before = working.values.map(\.count).reduce(0, +)
                    modelDelete(&working, table, k)
                    if working.values.map(\.count).reduce(0, +) < before - 1 { cascades += 1 }
                }
            }
            try checkLinkInvariants(txn, "transaction \(n)")
            if Int.random(in: 0..<5, using: &rng) == 0 {
                txn.write!.abort()
            } else {
                try txn.commit()
                model = working
            }
            try read(Self.tables) { r in
                for table in Self.tables {
                    var rows: [Int64: [StoreValue]] = [:]
                    try r.forEachRow(table) {
                        rows[$0.key] = $0.values(); return true
                    }
                    XCTAssertEqual(rows, model[table.name] ?? [:], "after transaction \(n): \(table.name)")
                }
                try checkLinkInvariants(r, "after transaction \(n)")
            }
            if n % 20 == 0 { try verifyDatabase() }
        }
        try verifyDatabase()
        XCTAssertGreaterThan(ops, 300)
        XCTAssertGreaterThan(cascades, 20)
        XCTAssertGreaterThan(model["Person"]?.count ?? 0, 3)
    }
}
