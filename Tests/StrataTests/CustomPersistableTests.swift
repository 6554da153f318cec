import Foundation
import Strata
import XCTest

/// `CustomPersistable`, `FailableCustomPersistable` and `URL` properties: stored as their
/// persisted type, read back as the custom type, queried by the persisted value.
final class CustomPersistableTests: SeedTestCase {
    func testCustomTypesAndURLsAreStoredAndReadBackAfterReopening() throws {
        do {
            let realm = try open()
            try realm.write {
                let host = NetworkHost()
                host.name = "gw"
                host.address = IPv4(10, 0, 0, 1)
                host.aliases.append(IPv4(192, 168, 1, 1))
                host.ports["http"] = EvenNumber(value: 80)
                host.homepage = URL(string: "https://example.com/")
                host.mirrors.append(URL(string: "https://mirror.example.com/a?b=c")!)
                realm.add(host)
            }
        }
        let realm = try open()
        let host = try XCTUnwrap(realm.object(ofType: NetworkHost.self, forPrimaryKey: "gw"))
        XCTAssertEqual(host.address, IPv4(10, 0, 0, 1))
        XCTAssertNil(host.backup)
        XCTAssertEqual(Array(host.aliases), [IPv4(192, 168, 1, 1)])
        XCTAssertEqual(host.ports["http"], EvenNumber(value: 80))
        XCTAssertEqual(host.weight, EvenNumber(value: 2))
        XCTAssertEqual(host.homepage, URL(string: "https://example.com/"))
        XCTAssertEqual(host.docs.absoluteString, "https://example.com/docs")
        XCTAssertEqual(host.mirrors.first?.absoluteString, "https://mirror.example.com/a?b=c")
        XCTAssertEqual(host.objectSchema["address"]?.type, .string)
        XCTAssertEqual(host.objectSchema["homepage"]?.type, .string)
        XCTAssertEqual(host.objectSchema["weight"]?.type, .int)
    }

    func testQueriesCompareThePersistedValues() throws {
        let realm = try open()
        try realm.write {
            realm.add(NetworkHost(value: ["name": "a", "address": IPv4(10, 0, 0, 1)]))
            realm.add(
                NetworkHost(value: [
                    "name": "b", "address": IPv4(10, 0, 0, 2), "homepage": URL(string: "https://b.example")!,
                ]))
        }
        XCTAssertEqual(realm.objects(NetworkHost.self).where { $0.address == IPv4(10, 0, 0, 2) }.map(\.name), ["b"])
        XCTAssertEqual(realm.objects(NetworkHost.self).filter("address == %@", "10.0.0.1").map(\.name), ["a"])
        XCTAssertEqual(
            realm.objects(NetworkHost.self).where { $0.homepage == URL(string: "https://b.example")! }.map(\.name),
            ["b"])
    }

    func testAValueThatDoesNotConvertIsRefusedAndTheStoredValueKept() throws {
        let realm = try open()
        try realm.write { realm.add(NetworkHost(value: ["name": "odd"])) }
        let host = try XCTUnwrap(realm.object(ofType: NetworkHost.self, forPrimaryKey: "odd"))
        try realm.write { host["weight"] = 3 }
        XCTAssertEqual(host.weight, EvenNumber(value: 2))
        let messages = takeViolations()
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("NetworkHost.weight") ?? false, "\(messages)")
    }
}
