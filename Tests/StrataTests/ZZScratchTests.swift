import Foundation
import Strata
import StrataTestSupport
import XCTest

final class ZZScratchTests: SeedTestCase {
    func nested(_ path: String) -> Bool {
        let bytes = try! Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array("NestedCountry".utf8)
        return bytes.indices.contains { i in i + needle.count <= bytes.count && Array(bytes[i..<(i + needle.count)]) == needle }
    }
    func explicitOpen(_ name: String) -> Bool {
        let path = dir + "/" + name
        let realm = try! Realm(configuration: Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), objectTypes: [Dog.self, DogToy.self, Person.self, Address.self]))
        _ = realm
        return nested(path)
    }
    func testScratch() throws {
        print("SCRATCH0 fresh:", explicitOpen("e0.realm"))
        do {
            let realm = try open("a.realm")
            try realm.write { realm.add(SeedDoggoToy(value: ["name": "Wubba"])) }
        }
        do {
            let realm = try open("a.realm")
            realm.beginWrite()
            realm.deleteAll()
            try realm.commitWrite()
        }
        print("SCRATCH3 after deleteAll:", explicitOpen("e2.realm"))
        for name in ["a.realm", "e0.realm", "e2.realm"] {
            let bytes = try! Array(Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
            let has = { (s: String) -> Bool in let n = Array(s.utf8); return bytes.indices.contains { i in i + n.count <= bytes.count && Array(bytes[i..<(i + n.count)]) == n } }
            print("SCRATCH file", name, "bytes", bytes.count, "Wubba", has("Wubba"), "SeedDoggoToy", has("SeedDoggoToy"), "NestedCountry", has("NestedCountry"))
        }
        print("SCRATCH ls", (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
    }
}
