import Foundation
import Strata
import StrataTestSupport
import XCTest

/// `where { }` on `PersistableEnum` properties: ordering comparisons by raw value (also on
/// optional enums, where nil never matches) and `rawValue` comparisons, as RealmSwift has them.
final class QueryEnumTests: SeedTestCase {
    func testEnumsCompareByRawValue() throws {
        let realm = try open()
        try realm.write {
            for (size, gauge) in [(EnumSize.small, EnumGauge.thin), (.large, .thick), (.large, nil)] {
                let shape = EnumShapes()
                shape.size = size
                shape.gauge = gauge
                realm.add(shape)
            }
            for level in [EnumLevel.low, .high, nil] {
                let slot = EnumKeyedLevel()
                slot.level = level
                realm.add(slot)
            }
        }
        let shapes = realm.objects(EnumShapes.self)
        XCTAssertEqual(shapes.where { $0.size > .small }.count, 2)
        XCTAssertEqual(shapes.where { $0.size >= .small }.count, 3)
        XCTAssertEqual(shapes.where { $0.size < .large }.count, 1)
        XCTAssertEqual(shapes.where { $0.size.rawValue == 2.5 }.count, 2)
        XCTAssertEqual(shapes.where { $0.size.persistableValue <= 0.5 }.count, 1)
        XCTAssertEqual(shapes.where { $0.gauge >= .thin }.count, 2, "nil is not at least thin")
        XCTAssertEqual(shapes.where { $0.gauge < .thick }.count, 1)
        let levels = realm.objects(EnumKeyedLevel.self)
        XCTAssertEqual(levels.where { $0.level >= .low }.count, 2)
        XCTAssertEqual(levels.where { $0.level > .low }.map(\.level), [.high])
        XCTAssertEqual(levels.where { $0.level.rawValue == nil }.count, 1)
        XCTAssertEqual(levels.where { $0.level.rawValue == 2 }.map(\.level), [.high])
    }
}
