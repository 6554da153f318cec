import Foundation
import Strata
import XCTest

/// Model classes nested in other types (`Kennel.NestedBreed`): stored under their own name, as
/// `className()` reports it, and used like top-level models.
final class NestedModelTests: SeedTestCase {
    func testNestedModelsAreStoredUnderTheirOwnNameAndReadBackAfterReopening() throws {
        XCTAssertEqual(Kennel.NestedBreed.className(), "NestedBreed")
        XCTAssertEqual(Kennel.NestedBreed().objectSchema.className, "NestedBreed")
        XCTAssertEqual(Kennel.NestedBreed().objectSchema["origin"]?.objectClassName, "NestedCountry")
        do {
            let realm = try open()
            try realm.write {
                let country = Kennel.NestedCountry()
                country.name = "Wales"
                let corgi = Kennel.NestedBreed()
                corgi.name = "Corgi"
                corgi.origin = country
                let tag = Registry.NestedTag()
                tag.code = "CW-1"
                corgi.tag = tag
                realm.add(corgi)
            }
        }
        let realm = try open()
        let corgi = try XCTUnwrap(realm.object(ofType: Kennel.NestedBreed.self, forPrimaryKey: "Corgi"))
        XCTAssertEqual(corgi.origin?.name, "Wales")
        XCTAssertEqual(corgi.tag?.code, "CW-1")
        XCTAssertEqual(realm.objects(Kennel.NestedCountry.self).first?.breeds.map(\.name), ["Corgi"])
        XCTAssertEqual(realm.objects(Kennel.NestedBreed.self).where { $0.origin.name == "Wales" }.count, 1)
        XCTAssertEqual(realm.objects(Kennel.NestedBreed.self).filter("tag.code == 'CW-1'").count, 1)
    }
}
