import Foundation
@testable import StrataCore
import StrataStorage
import Strata
import XCTest

/// A realm file written with one row per object (`o:<Class>`, before clusters) opens: read-only it
/// is refused with an error that says what to do; writable it is converted to clusters once,
/// with every object, link and list intact (FORMAT.md, "Object rows (format 1)").
final class LegacyRowUpgradeTests: SeedTestCase {
    /// Rewrites every table of the file at `path` from clusters back to rows, as Strata 0.1 wrote it.
    func downgradeToRows(_ path: String) throws {
        let db = try Database(path: path)
        defer { db.close() }
        let txn = StoreTransaction(write: try db.beginWrite())
        for table in try txn.storedTables().values {
            var rows: [(Int64, [StoreValue])] = []
            try txn.forEachRow(table) { r in
                rows.append((r.key, r.values())); return true
            }
            for (key, values) in rows {
                try txn.putRaw(
                    withUnsafeBytes(of: objectKeyBytes(key)) { Array($0) }, RowEncoder.encode(values, table: table),
                    tree: table.legacyRowTree)
            }
            try txn.dropTree(table.objectTree)
        }
        try txn.commit()
    }

    func treeNames(_ path: String) throws -> [String] {
        let db = try Database(path: path)
        defer { db.close() }
        let r = try db.beginRead()
        defer { r.end() }
        return try r.treeNames()
    }

    func testRowFilesAreConvertedOnWritableOpenAndRefusedReadOnly() throws {
        do {
            let realm = try open()
            try realm.write {
                for i in 0..<300 {
                    let p = Person()
                    p.id = i
                    p.name = "person \(i)"
                    if i % 3 == 0 {
                        let d = Dog()
                        d.name = "dog \(i)"
                        d.age = i % 17
                        d.breed = i % 2 == 0 ? nil : "mutt"
                        p.dogs.append(d)
                    }
                    realm.add(p)
                }
            }
        }
        let path = url().path
        try downgradeToRows(path)
        XCTAssertTrue(try treeNames(path).contains("o:Person"))
        XCTAssertFalse(try treeNames(path).contains("c:Person"))

        var readOnly = config()
        readOnly.readOnly = true
        XCTAssertThrowsError(try Realm(configuration: readOnly)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("one row per object") && message.contains("Open it writable once"), message)
        }

        do {
            let realm = try open()
            XCTAssertEqual(realm.objects(Person.self).count, 300)
            XCTAssertEqual(realm.objects(Dog.self).count, 100)
            let p = try XCTUnwrap(realm.object(ofType: Person.self, forPrimaryKey: 42))
            XCTAssertEqual(p.name, "person 42")
            XCTAssertEqual(p.dogs.first?.name, "dog 42")
            XCTAssertEqual(p.dogs.first?.owners.first?.id, 42)
            XCTAssertEqual(
                realm.objects(Dog.self).where { $0.age > 10 }.count,
                (0..<300).filter { $0 % 3 == 0 && $0 % 17 > 10 }.count)
            XCTAssertEqual(
                realm.objects(Dog.self).where { $0.breed == nil }.count,
                (0..<300).filter { $0 % 3 == 0 && $0 % 2 == 0 }.count)
            try realm.write { realm.add(Person(value: ["id": 1000, "name": "new"])) }
            XCTAssertEqual(realm.objects(Person.self).count, 301)
        }
        let names = try treeNames(path)
        XCTAssertFalse(names.contains("o:Person"), "\(names)")
        XCTAssertTrue(names.contains("c:Person"), "\(names)")
        // Read-only opens work once converted.
        let realm = try Realm(configuration: readOnly)
        XCTAssertEqual(realm.objects(Person.self).count, 301)
    }
}
