import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// `Decimal128` properties sync through `numeric` columns: exact digits both ways, SQL edits and
/// arithmetic reaching the devices, subscriptions comparing decimals on the server.
final class SyncDecimalTests: SyncTestCase {
    private func d(_ s: String) -> Decimal128 { try! Decimal128(string: s) }

    /// Every element's text, which shows the digits and the scale (`1.50` is not `1.5` here).
    private func texts<S: Sequence>(_ s: S) -> [String] where S.Element == Decimal128 { s.map(\.description) }

    @MainActor
    func testDecimalValuesKeepTheirDigitsThroughANumericColumn() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncLedger.self]), downloadBeforeOpen: .always)
        let b = try await Realm(
            configuration: configuration("b", server, db, types: [SyncLedger.self]), downloadBeforeOpen: .always)
        let history = ["0.1", "1.50", "15E+1", "1.5E+40", "1E-40", "-0.000001", "0"]
        try a.write {
            let l = SyncLedger()
            l.id = 1
            l.amount = d("19.99")
            l.history.append(objectsIn: history.map(d))
            l.limits["max"] = d("1000.00")
            l.limits["none"] = .some(nil)
            a.add(l)
            let extremes = SyncLedger()
            extremes.id = 2
            extremes.amount = d("9.999999999999999999999999999999999E+6144")
            extremes.fee = d("-1E-6176")
            a.add(extremes)
            let special = SyncLedger()
            special.id = 3
            special.amount = .nan
            special.fee = -Decimal128.infinity
            special.history.append(.infinity)
            a.add(special)
        }
        // The writer keeps what the server keeps: `numeric` has no exponent above zero, so 15E+1
        // is 150 and 1.5E+40 is its 41 digits (34 of them significant) from the commit on.
        let written = try XCTUnwrap(a.object(ofType: SyncLedger.self, forPrimaryKey: 1))
        XCTAssertEqual(
            texts(written.history),
            ["0.1", "1.50", "150", "1.500000000000000000000000000000000E+40", "1E-40", "-0.000001", "0"])
        XCTAssertEqual(written.history[3], d("1.5E+40"))

        try await sync(a, to: [b])
        for id in 1...3 {
            let x = try XCTUnwrap(a.object(ofType: SyncLedger.self, forPrimaryKey: id))
            let y = try XCTUnwrap(b.object(ofType: SyncLedger.self, forPrimaryKey: id), "object \(id) on b")
            XCTAssertEqual(x.amount.description, y.amount.description, "amount of \(id)")
            XCTAssertEqual(x.fee?.description, y.fee?.description, "fee of \(id)")
            XCTAssertEqual(texts(x.history), texts(y.history), "history of \(id)")
            XCTAssertEqual(x.limits.count, y.limits.count)
        }
        let l = try XCTUnwrap(b.object(ofType: SyncLedger.self, forPrimaryKey: 1))
        XCTAssertEqual(l.amount.description, "19.99")
        XCTAssertNil(l.fee)
        XCTAssertEqual(l.limits["max"]??.description, "1000.00")
        XCTAssertEqual(l.limits["none"], .some(nil))
        let special = try XCTUnwrap(b.object(ofType: SyncLedger.self, forPrimaryKey: 3))
        XCTAssertTrue(special.amount.isNaN)
        XCTAssertEqual(special.fee, -Decimal128.infinity)
        XCTAssertEqual(Array(special.history), [.infinity])
        XCTAssertEqual(
            try XCTUnwrap(b.object(ofType: SyncLedger.self, forPrimaryKey: 2)).fee, d("-1E-6176"))

        // PostgreSQL holds numerics with the same digits.
        XCTAssertEqual(
            try server.sql(
                "SELECT pg_typeof(amount)::text, amount::text, coalesce(fee::text, 'null'), history::text FROM \"SyncLedger\" WHERE id = 1",
                database: db),
            "numeric|19.99|null|[\"0.1\", \"1.50\", \"150\", \"15000000000000000000000000000000000000000\", \"0.0000000000000000000000000000000000000001\", \"-0.000001\", \"0\"]\n"
        )
        XCTAssertEqual(
            try server.sql("SELECT amount::text, fee::text FROM \"SyncLedger\" WHERE id = 3", database: db),
            "NaN|-Infinity\n")

        // Arithmetic and edits in SQL reach both replicas, numbers in a jsonb list too.
        try server.sql(
            "UPDATE \"SyncLedger\" SET amount = amount + 0.01, fee = 2.500, history = '[1.25, \"3\", \"-7.10\", 1.10, 12345678901234567890.123]', limits = '{\"max\": 99.990}' WHERE id = 1",
            database: db)
        for r in [a, b] {
            try await wait(r, .download)
            r.refresh()
            let edited = try XCTUnwrap(r.object(ofType: SyncLedger.self, forPrimaryKey: 1))
            XCTAssertEqual(edited.amount.description, "20.00")
            XCTAssertEqual(edited.fee?.description, "2.500")
            // Numbers in the jsonb list keep their digits (JSON would read them as Doubles).
            XCTAssertEqual(texts(edited.history), ["1.25", "3", "-7.10", "1.10", "12345678901234567890.123"])
            XCTAssertEqual(edited.limits["max"]??.description, "99.990")
        }

        // The same field edited on both replicas converges to the later write.
        a.syncSession!.suspend()
        b.syncSession!.suspend()
        try a.write { a.object(ofType: SyncLedger.self, forPrimaryKey: 1)!.amount = d("1.1") }
        try await Task.sleep(nanoseconds: 5_000_000)
        try b.write { b.object(ofType: SyncLedger.self, forPrimaryKey: 1)!.amount = d("2.20") }
        a.syncSession!.resume()
        b.syncSession!.resume()
        try await sync(a, to: [b])
        try await sync(b, to: [a])
        for r in [a, b] {
            XCTAssertEqual(r.object(ofType: SyncLedger.self, forPrimaryKey: 1)!.amount.description, "2.20")
        }
        XCTAssertEqual(try server.sql("SELECT amount::text FROM \"SyncLedger\" WHERE id = 1", database: db), "2.20\n")
    }

    /// A subscription comparing a Decimal128 property is evaluated on the server in `numeric`,
    /// exactly (0.1 + 0.2 is 0.3 there, as it is for Decimal128), with NaN below every number
    /// as in local queries (`numeric` puts it above).
    @MainActor
    func testASubscriptionComparesDecimalsOnTheServer() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(
            configuration: configuration("a", server, db, types: [SyncLedger.self]), downloadBeforeOpen: .always)
        try a.write {
            for (i, amount) in ["0.3", "0.30000000000000001", "0.29999", "100", "-5", "NaN"].enumerated() {
                let l = SyncLedger()
                l.id = i + 1
                l.amount = d(amount)
                a.add(l)
            }
        }
        try await wait(a, .upload)
        let threshold = d("0.1") + d("0.2")
        var c = configuration("b", server, db, types: [SyncLedger.self])
        c.syncConfiguration!.initialSubscriptions = { subs in
            subs.append(QuerySubscription<SyncLedger>(name: "large") { $0.amount >= threshold })
        }
        let b = try await Realm(configuration: c, downloadBeforeOpen: .always)
        XCTAssertEqual(b.objects(SyncLedger.self).map(\.id).sorted(), [1, 2, 4])
        XCTAssertEqual(
            Set(b.objects(SyncLedger.self).map(\.id)),
            Set(a.objects(SyncLedger.self).where { $0.amount >= threshold }.map(\.id)),
            "the server selects what the same query selects locally")

        let subscriptions = b.subscriptions
        try await Self.within(60, "subscriptions.update") {
            try await subscriptions.update {
                $0.first(named: "large")!.updateQuery(toType: SyncLedger.self, where: "amount < %@", Decimal128(0))
            }
        }
        b.refresh()
        XCTAssertEqual(b.objects(SyncLedger.self).map(\.id).sorted(), [5, 6])
        XCTAssertEqual(a.objects(SyncLedger.self).where { $0.amount < Decimal128(0) }.map(\.id).sorted(), [5, 6])
    }
}
