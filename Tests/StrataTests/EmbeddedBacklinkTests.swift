import Foundation
import Strata
import XCTest

// Models: an embedded object with LinkingObjects to its owner (through a to-one link and a list).

final class EmbHouse: Object {
    @Persisted var owner = ""
    @Persisted var address: EmbAddress?
    @Persisted var formerAddresses: List<EmbAddress>
}

/// An embedded object that finds its parent through LinkingObjects.
final class EmbAddress: EmbeddedObject {
    @Persisted var city = ""
    @Persisted(originProperty: "address") var houses: LinkingObjects<EmbHouse>
    @Persisted(originProperty: "formerAddresses") var formerHouses: LinkingObjects<EmbHouse>
}

/// `LinkingObjects` declared in an `EmbeddedObject`: an embedded object finds the object that
/// owns it, through a to-one link or a list.
final class EmbeddedBacklinkTests: SeedTestCase {
    func makeAddress(_ city: String) -> EmbAddress {
        let address = EmbAddress()
        address.city = city
        return address
    }

    func testAnEmbeddedObjectFindsItsOwnerThroughLinkingObjects() throws {
        do {
            let realm = try open()
            try realm.write {
                let house = EmbHouse()
                house.owner = "Ann"
                house.address = makeAddress("Oslo")
                house.formerAddresses.append(makeAddress("Bergen"))
                house.formerAddresses.append(makeAddress("Tromsø"))
                realm.add(house)
                realm.add(EmbHouse(value: ["owner": "Bob", "address": ["city": "Lund"]]))
            }
        }
        let realm = try open()
        let ann = try XCTUnwrap(realm.objects(EmbHouse.self).where { $0.owner == "Ann" }.first)
        let address = try XCTUnwrap(ann.address)
        XCTAssertEqual(address.houses.map(\.owner), ["Ann"])
        XCTAssertEqual(address.formerHouses.count, 0)
        XCTAssertEqual(ann.formerAddresses.map { $0.formerHouses.map(\.owner) }, [["Ann"], ["Ann"]])
        XCTAssertEqual(ann.formerAddresses.map { $0.houses.count }, [0, 0])
        XCTAssertEqual(
            realm.objects(EmbHouse.self).where { $0.owner == "Bob" }.first?.address?.houses.map(\.owner), ["Bob"])

        // Replacing the embedded object: the new one has the owner, the old one is gone.
        try realm.write { ann.address = makeAddress("Paris") }
        XCTAssertEqual(ann.address?.houses.map(\.owner), ["Ann"])
        XCTAssertEqual(ann.address?.city, "Paris")
    }
}
