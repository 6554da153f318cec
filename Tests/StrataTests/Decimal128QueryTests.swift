import Foundation
import Strata
import XCTest

/// `Decimal128` properties in queries, sorting and aggregates: compared by value (`0.10 == 0.1`),
/// ordered, NaN first and the infinities at the ends, as `Decimal128`'s own `<` orders them.
final class Decimal128QueryTests: SeedTestCase {
    private func d(_ s: String) -> Decimal128 { try! Decimal128(string: s) }

    private func seeded() throws -> Realm {
        let realm = try open()
        let totals: [(String, String)] = [
            ("a", "0.10"), ("b", "0.1"), ("c", "2.5"), ("d", "-3"), ("e", "1E+10"), ("f", "-0"), ("g", "250E-2"),
            ("h", "12345678901234567890123456789012.34"),
        ]
        try realm.write {
            for (customer, total) in totals {
                realm.add(Invoice(value: ["customer": customer, "total": d(total)] as [String: Any]))
            }
            realm.add(Invoice(value: ["customer": "n", "total": Decimal128.nan] as [String: Any]))
            realm.add(Invoice(value: ["customer": "i", "total": Decimal128.infinity] as [String: Any]))
            realm.add(Invoice(value: ["customer": "j", "total": -Decimal128.infinity] as [String: Any]))
        }
        return realm
    }

    private func customers(_ results: Results<Invoice>) -> [String] { results.map(\.customer).sorted() }

    func testComparisonsInBothQueryFormsFollowTheNumericValue() throws {
        let realm = try seeded()
        let invoices = realm.objects(Invoice.self)
        XCTAssertEqual(customers(invoices.where { $0.total > d("1") }), ["c", "e", "g", "h", "i"])
        XCTAssertEqual(customers(invoices.where { $0.total <= d("0.1") }), ["a", "b", "d", "f", "j", "n"])
        XCTAssertEqual(customers(invoices.where { $0.total == d("0.100") }), ["a", "b"])
        XCTAssertEqual(customers(invoices.where { $0.total == d("2.50") }), ["c", "g"])
        XCTAssertEqual(customers(invoices.where { $0.total == d("0") }), ["f"])
        XCTAssertEqual(
            customers(invoices.filter("total >= %@ AND total < %@", d("-3"), d("2.5"))), ["a", "b", "d", "f"])
        XCTAssertEqual(customers(invoices.filter("total BETWEEN {%@, %@}", d("0.1"), d("2.5"))), ["a", "b", "c", "g"])
        XCTAssertEqual(customers(invoices.where { $0.total.contains(d("-5")..<d("0.1")) }), ["d", "f"])
        XCTAssertEqual(invoices.filter("total != %@", d("0.1")).count, 9)
        XCTAssertEqual(customers(invoices.filter("total > 1")), ["c", "e", "g", "h", "i"])
        XCTAssertEqual(customers(invoices.filter("total < %@", -2)), ["d", "j", "n"])
    }

    func testSortingAndExtremesUseTheSameOrderAsDecimal128() throws {
        let realm = try seeded()
        let invoices = realm.objects(Invoice.self)
        let sorted = invoices.sorted(byKeyPath: "total").map(\.total)
        XCTAssertEqual(Array(sorted), invoices.map(\.total).sorted())
        XCTAssertEqual(invoices.sorted(byKeyPath: "total").first?.customer, "n")
        XCTAssertEqual(invoices.sorted(byKeyPath: "total", ascending: false).first?.customer, "i")
        let finite = invoices.where { $0.total > -Decimal128.infinity && $0.total < Decimal128.infinity }
        XCTAssertEqual(finite.min(ofProperty: "total") as Decimal128?, d("-3"))
        XCTAssertEqual(finite.max(of: \.total), d("12345678901234567890123456789012.34"))
        XCTAssertEqual(invoices.max(ofProperty: "total") as Decimal128?, .infinity)
        XCTAssertEqual(realm.objects(Invoice.self).where { $0.customer == "zz" }.min(of: \.total), nil)
    }
}
