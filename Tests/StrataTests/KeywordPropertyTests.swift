import Foundation
import Strata
import XCTest

/// A model whose properties are named with Swift keywords (declared with backticks).
class KeywordNamed: Object {
    @Persisted var `default` = ""
    @Persisted var `class` = 0
}

/// Properties declared with backticks are named without them, as Swift names them.
final class KeywordPropertyTests: SeedTestCase {
    func testBacktickedPropertiesAreStoredAndQueriedUnderTheirPlainNames() throws {
        XCTAssertEqual(KeywordNamed().objectSchema.properties.map(\.name), ["default", "class"])
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url(), objectTypes: [KeywordNamed.self]))
        try realm.write { realm.create(KeywordNamed.self, value: ["default": "x", "class": 2]) }
        let object = try XCTUnwrap(realm.objects(KeywordNamed.self).first)
        XCTAssertEqual(object.default, "x")
        XCTAssertEqual(object.class, 2)
        XCTAssertEqual(realm.objects(KeywordNamed.self).filter("%K == 2", "class").count, 1)
        XCTAssertEqual(object.value(forKey: "default") as? String, "x")
    }
}
