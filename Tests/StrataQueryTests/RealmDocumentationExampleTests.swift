import StrataQuery
import XCTest

/// The filter strings Realm's documentation and Realm Swift's README use, with their ASTs.
final class RealmDocumentationExampleTests: XCTestCase {
    func testNameAndAge() {
        assertParses(
            "name == 'Rex' AND age > 3",
            .and([
                cmp(kp("name"), .equal, str("Rex")),
                cmp(kp("age"), .greaterThan, int(3)),
            ]))
    }

    func testAnyDogsNameBeginsWith() {
        assertParses("ANY dogs.name BEGINSWITH 'B'", cmp(kp("dogs.name"), .beginsWith, str("B"), [], .any))
    }

    func testDogsCount() {
        assertParses("dogs.@count > 1", cmp(kp("dogs", .count), .greaterThan, int(1)))
    }

    func testAgeBetween() {
        assertParses("age BETWEEN {1, 5}", cmp(kp("age"), .between, .list([int(1), int(5)])))
    }

    func testNameIn() {
        assertParses("name IN {'Rex', 'Maui'}", cmp(kp("name"), .in, .list([str("Rex"), str("Maui")])))
    }

    func testRealmSwiftReadmeFilter() {
        // realm-swift README: realm.objects(Dog.self).filter("age > %@ AND name BEGINSWITH[c] %@", 3, "b")
        guard let query = parsed("age > %@ AND name BEGINSWITH[c] %@") else { return }
        XCTAssertEqual(query.argumentCount, 2)
        XCTAssertNoThrow(try query.validateArgumentCount(2))
    }

    func testColorAndNameBeginsWith() {
        // "Filtering" in Realm's Swift docs: "color = 'tan' AND name BEGINSWITH 'B'"
        assertParses(
            "color = 'tan' AND name BEGINSWITH 'B'",
            .and([
                cmp(kp("color"), .equal, str("tan")),
                cmp(kp("name"), .beginsWith, str("B")),
            ]))
    }

    func testAggregatesFromTheQueryLanguageReference() {
        assertParses("dogs.@avg.age >= 4", cmp(kp("dogs", .avg("age")), .greaterThanOrEqual, int(4)))
        assertParses(
            "items.@sum.price > 100 && items.@count > 2",
            .and([
                cmp(kp("items", .sum("price")), .greaterThan, int(100)),
                cmp(kp("items", .count), .greaterThan, int(2)),
            ]))
    }

    func testOwnerIsNil() {
        assertParses(
            "owner == nil OR owner.name == NULL",
            .or([
                cmp(kp("owner"), .equal, null),
                cmp(kp("owner.name"), .equal, null),
            ]))
    }
}
