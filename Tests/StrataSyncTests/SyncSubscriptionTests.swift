import Foundation
import Strata
import StrataTestSupport
import XCTest

@testable import StrataSync

/// Subscriptions: a replica downloads the objects its queries match, objects that stop
/// matching leave it (and stay on the server), and each query the server evaluates selects
/// what the same query selects locally.
final class SyncSubscriptionTests: SyncTestCase {
    /// A configuration whose first open subscribes with `initial`.
    func subscribed(
        _ name: String, _ server: PostgresTestServer, _ db: String,
        rerunOnOpen: Bool = false, _ initial: @escaping @Sendable (SyncSubscriptionSet) -> Void
    ) -> Realm.Configuration {
        var c = configuration(name, server, db)
        c.syncConfiguration!.initialSubscriptions = initial
        c.syncConfiguration!.rerunOnOpen = rerunOnOpen
        return c
    }

    @MainActor
    func ids(_ realm: Realm) -> [Int] {
        realm.refresh()
        return realm.objects(SyncDog.self).map(\.id).sorted()
    }

    @MainActor
    func update(_ realm: Realm, _ block: @escaping (SyncSubscriptionSet) -> Void) async throws {
        let subs = realm.subscriptions
        nonisolated(unsafe) let body = block
        try await Self.within(60, "subscriptions.update") { try await subs.update { body($0) } }
        realm.refresh()
    }

    @MainActor
    func testASubscribedReplicaHoldsWhatItsQueriesMatchAndObjectsLeavingTheSubscriptionLeaveIt() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write {
            for i in 1...10 { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) }
        }
        try await wait(a, .upload)

        let b = try await Realm(
            configuration: subscribed("b", server, db) {
                $0.append(QuerySubscription<SyncDog>(name: "adults") { $0.age > 5 })
            }, downloadBeforeOpen: .always)
        XCTAssertEqual(ids(b), [6, 7, 8, 9, 10])
        XCTAssertEqual(b.subscriptions.count, 1)
        XCTAssertEqual(b.subscriptions.first?.name, "adults")
        XCTAssertEqual(b.subscriptions.first?.objectClassName, "SyncDog")
        XCTAssertEqual(b.subscriptions.first?.queryString, "age > 5")
        XCTAssertEqual(b.subscriptions.state, .complete)

        // Changes on the server move objects in and out of the subscription.
        try a.write {
            a.object(ofType: SyncDog.self, forPrimaryKey: 7)!.age = 2  // leaves
            a.object(ofType: SyncDog.self, forPrimaryKey: 3)!.age = 8  // enters
        }
        try await sync(a, to: [b])
        XCTAssertEqual(ids(b), [3, 6, 8, 9, 10])
        try server.sql("UPDATE \"SyncDog\" SET age = 100 WHERE id = 1", database: db)
        try await wait(b, .download)
        XCTAssertEqual(ids(b), [1, 3, 6, 8, 9, 10])

        // A new query: what it matches downloads, the rest leaves; the server keeps everything.
        try await update(b) { subs in
            subs.first(named: "adults")!.updateQuery(toType: SyncDog.self, where: "age < %@", 3)
        }
        XCTAssertEqual(ids(b), [2, 7])
        XCTAssertEqual(b.subscriptions.first?.queryString, "age < 3")
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "10\n")

        // Local writes: one that matches stays; one that does not is uploaded, then leaves.
        try b.write {
            b.add(SyncDog(value: ["id": 50, "name": "puppy", "age": 1]))
            b.add(SyncDog(value: ["id": 51, "name": "elder", "age": 40]))
        }
        try await wait(b, .upload)
        try await wait(b, .download)
        XCTAssertEqual(ids(b), [2, 7, 50])
        XCTAssertEqual(
            try server.sql("SELECT name FROM \"SyncDog\" WHERE id IN (50, 51) ORDER BY id", database: db),
            "puppy\nelder\n")
        // An edit of an object on its way out is not lost: it reaches the server.
        try a.write { a.object(ofType: SyncDog.self, forPrimaryKey: 2)!.age = 30 }
        try await sync(a, to: [b])
        XCTAssertEqual(ids(b), [7, 50])
        XCTAssertEqual(try server.sql("SELECT age FROM \"SyncDog\" WHERE id = 2", database: db), "30\n")

        // Deletes of subscribed objects still delete everywhere.
        try b.write { b.delete(b.object(ofType: SyncDog.self, forPrimaryKey: 7)!) }
        try await sync(b, to: [a])
        XCTAssertNil(a.object(ofType: SyncDog.self, forPrimaryKey: 7))

        // No subscriptions: nothing stays on the device, everything stays on the server.
        try await update(b) { $0.removeAll() }
        XCTAssertEqual(ids(b), [])
        XCTAssertEqual(b.subscriptions.count, 0)
        XCTAssertEqual(try server.sql("SELECT count(*) FROM \"SyncDog\"", database: db), "11\n")
        // The writer never subscribed: it still syncs every object.
        XCTAssertEqual(ids(a).count, 11)
    }

    /// Each query, evaluated by PostgreSQL as a subscription, selects the objects the same query
    /// selects in a local realm: comparisons with NULL, case-insensitive and wildcard string
    /// matching, quotes and LIKE's own special characters in values, code-point string order,
    /// dates, IN, BETWEEN, negation.
    @MainActor
    func testSubscriptionQueriesSelectWhatTheSameQueriesSelectLocally() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        let names = [
            "Rex", "rex", "Max", "Bella", "O'Brien", "100% dog", "a_b", "Åsa", "zed", "Rox", "", "R\\x", "Ra*x",
        ]
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        try a.write {
            for (i, name) in names.enumerated() {
                a.add(
                    SyncDog(value: [
                        "id": i + 1, "name": name, "age": i % 7, "weight": i % 3 == 0 ? nil : Double(i) * 1.5,
                        "born": epoch.addingTimeInterval(Double(i) * 86_400),
                    ]))
            }
        }
        try await wait(a, .upload)
        let b = try await Realm(
            configuration: subscribed("b", server, db) {
                $0.append(QuerySubscription<SyncDog>(where: "FALSEPREDICATE"))
            },
            downloadBeforeOpen: .always)
        XCTAssertEqual(ids(b), [])

        let cutoff = epoch.addingTimeInterval(5.5 * 86_400)
        let cases: [(String, QuerySubscription<SyncDog>, Results<SyncDog>)] = [
            ("age > 3", QuerySubscription { $0.age > 3 }, a.objects(SyncDog.self).where { $0.age > 3 }),
            (
                "age >= 2 && age <= 4", QuerySubscription { $0.age >= 2 && $0.age <= 4 },
                a.objects(SyncDog.self).where { $0.age >= 2 && $0.age <= 4 }
            ),
            ("!(age > 3)", QuerySubscription { !($0.age > 3) }, a.objects(SyncDog.self).where { !($0.age > 3) }),
            ("name == Rex", QuerySubscription { $0.name == "Rex" }, a.objects(SyncDog.self).where { $0.name == "Rex" }),
            (
                "name ==[c] rex", QuerySubscription(where: "name ==[c] %@", "rex"),
                a.objects(SyncDog.self).filter("name ==[c] %@", "rex")
            ),
            (
                "name != Rex", QuerySubscription(where: "name != 'Rex'"),
                a.objects(SyncDog.self).filter("name != 'Rex'")
            ),
            (
                "starts(with: R)", QuerySubscription { $0.name.starts(with: "R") },
                a.objects(SyncDog.self).where { $0.name.starts(with: "R") }
            ),
            (
                "BEGINSWITH[c] r", QuerySubscription(where: "name BEGINSWITH[c] 'r'"),
                a.objects(SyncDog.self).filter("name BEGINSWITH[c] 'r'")
            ),
            (
                "ENDSWITH x", QuerySubscription(where: "name ENDSWITH 'x'"),
                a.objects(SyncDog.self).filter("name ENDSWITH 'x'")
            ),
            (
                "CONTAINS %", QuerySubscription(where: "name CONTAINS %@", "%"),
                a.objects(SyncDog.self).filter("name CONTAINS %@", "%")
            ),
            (
                "contains(a)", QuerySubscription { $0.name.contains("a") },
                a.objects(SyncDog.self).where { $0.name.contains("a") }
            ),
            (
                "LIKE R?x", QuerySubscription(where: "name LIKE 'R?x'"),
                a.objects(SyncDog.self).filter("name LIKE 'R?x'")
            ),
            (
                "LIKE[c] r*x", QuerySubscription(where: "name LIKE[c] 'r*x'"),
                a.objects(SyncDog.self).filter("name LIKE[c] 'r*x'")
            ),
            (
                "LIKE *_*", QuerySubscription(where: "name LIKE '*_*'"),
                a.objects(SyncDog.self).filter("name LIKE '*_*'")
            ),
            (
                "quote", QuerySubscription { $0.name == "O'Brien" },
                a.objects(SyncDog.self).where { $0.name == "O'Brien" }
            ),
            ("name < M", QuerySubscription { $0.name < "M" }, a.objects(SyncDog.self).where { $0.name < "M" }),
            ("empty name", QuerySubscription { $0.name == "" }, a.objects(SyncDog.self).where { $0.name == "" }),
            (
                "weight == nil", QuerySubscription { $0.weight == nil },
                a.objects(SyncDog.self).where { $0.weight == nil }
            ),
            (
                "weight != nil", QuerySubscription { $0.weight != nil },
                a.objects(SyncDog.self).where { $0.weight != nil }
            ),
            (
                "weight != 3", QuerySubscription { $0.weight != 3.0 },
                a.objects(SyncDog.self).where { $0.weight != 3.0 }
            ),
            (
                "NOT weight > 10", QuerySubscription(where: "NOT (weight > 10)"),
                a.objects(SyncDog.self).filter("NOT (weight > 10)")
            ),
            (
                "age IN", QuerySubscription(where: "age IN %@", [1, 3, 5]),
                a.objects(SyncDog.self).filter("age IN %@", [1, 3, 5])
            ),
            (
                "BETWEEN", QuerySubscription(where: "age BETWEEN {2, 4}"),
                a.objects(SyncDog.self).filter("age BETWEEN {2, 4}")
            ),
            ("born >", QuerySubscription { $0.born > cutoff }, a.objects(SyncDog.self).where { $0.born > cutoff }),
            ("id ==", QuerySubscription { $0.id == 3 }, a.objects(SyncDog.self).where { $0.id == 3 }),
            (
                "age < id", QuerySubscription(where: "age < id"),
                a.objects(SyncDog.self).filter("age < id")
            ),
            (
                "or", QuerySubscription { $0.age == 0 || $0.name == "Max" },
                a.objects(SyncDog.self).where { $0.age == 0 || $0.name == "Max" }
            ),
            ("all", QuerySubscription(), a.objects(SyncDog.self)),
        ]
        for (label, subscription, local) in cases {
            try await update(b) {
                $0.removeAll()
                $0.append(subscription)
            }
            let expected = local.map(\.id).sorted()
            XCTAssertEqual(ids(b), expected, label)
        }
        // Two subscriptions: the union of what they match.
        try await update(b) {
            $0.removeAll()
            $0.append(QuerySubscription<SyncDog> { $0.age == 1 }, QuerySubscription<SyncDog> { $0.age == 2 })
        }
        XCTAssertEqual(ids(b), a.objects(SyncDog.self).filter("age IN {1, 2}").map(\.id).sorted())
    }

    @MainActor
    func testSubscriptionsTheServerCannotEvaluateAreRefusedAndNothingIsCommitted() async throws {
        let (server, db) = try freshDatabase()
        let b = try await Realm(
            configuration: subscribed("b", server, db) { $0.append(QuerySubscription<SyncDog>(name: "all")) },
            downloadBeforeOpen: .always)
        let subs = b.subscriptions
        func refused(_ what: String, _ block: @escaping (SyncSubscriptionSet) -> Void, mentions: String) async {
            do {
                try await subs.update { block($0) }
                XCTFail("\(what) was accepted")
            } catch let e as SyncError {
                XCTAssertEqual(e.code, .invalidSubscription, what)
                XCTAssertTrue(e.message.contains(mentions), "\(what): \(e.message)")
            } catch {
                XCTFail("\(what): \(error)")
            }
        }
        await refused(
            "diacritic-insensitive", { $0.append(QuerySubscription<SyncDog>(where: "name ==[d] 'a'")) }, mentions: "[d]"
        )
        await refused("a type that does not sync", { $0.append(QuerySubscription<SyncNote>()) }, mentions: "SyncNote")
        await refused(
            "an unknown property", { $0.append(QuerySubscription<SyncDog>(where: "colour == 'red'")) },
            mentions: "colour")
        await refused(
            "a name used twice", { $0.append(QuerySubscription<SyncDog>(name: "all") { $0.age > 1 }) }, mentions: "all")
        await refused(
            "SORT", { $0.append(QuerySubscription<SyncDog>(where: "age > 1 SORT(age ASC)")) }, mentions: "SORT")
        await refused(
            "[c] on a number", { $0.append(QuerySubscription<SyncDog>(where: "age ==[c] id")) }, mentions: "[c]")
        await refused(
            "a change from another thread during an update",
            { set in
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    set.append(QuerySubscription<SyncDog>(name: "other"))
                    done.signal()
                }
                done.wait()
            }, mentions: "another thread")
        // Inside a write transaction (the engine's own write would wait for the caller's lock).
        b.beginWrite()
        await refused(
            "an update inside a write transaction", { $0.append(QuerySubscription<SyncDog>(name: "w")) },
            mentions: "inside a write transaction")
        XCTAssertEqual(subs.count, 1, "the set reads while the caller holds the write lock")
        b.cancelWrite()
        // A refused update commits nothing, not even its valid parts.
        await refused(
            "a valid and an invalid subscription",
            {
                $0.append(QuerySubscription<SyncDog>(name: "valid") { $0.age > 1 })
                $0.append(QuerySubscription<SyncDog>(where: "name ==[d] 'a'"))
            }, mentions: "[d]")
        XCTAssertEqual(subs.map(\.name), ["all"])
        XCTAssertEqual(subs.state, .complete)

        // A change outside an update block is refused through the set's state.
        subs.append(QuerySubscription<SyncDog>(name: "outside"))
        guard case .error(let e) = subs.state else { return XCTFail("state is \(subs.state)") }
        XCTAssertTrue(e.message.contains("outside an update block"), e.message)
        XCTAssertEqual(subs.count, 1)
        // The next update clears it.
        try await update(b) { $0.append(QuerySubscription<SyncDog>(name: "adults") { $0.age > 5 }) }
        XCTAssertEqual(subs.state, .complete)
        XCTAssertEqual(subs.map(\.name), ["all", "adults"])

        // A realm that does not sync has no subscriptions to update.
        let local = try Realm(
            configuration: Realm.Configuration(
                fileURL: temporaryDirectory.appendingPathComponent("local.realm"), objectTypes: [SyncDog.self]))
        do {
            try await local.subscriptions.update { $0.removeAll() }
            XCTFail("a local realm's subscriptions updated")
        } catch let e as SyncError {
            XCTAssertEqual(e.code, .invalidSubscription)
        }
        // Initial subscriptions the server cannot evaluate fail the open with the error.
        do {
            _ = try Realm(
                configuration: subscribed("c", server, db) {
                    $0.append(QuerySubscription<SyncDog>(where: "name ==[d] 'a'"))
                })
            XCTFail("an open with invalid initial subscriptions succeeded")
        } catch let e as SyncError {
            XCTAssertEqual(e.code, .invalidSubscription)
        }
    }

    /// The set is kept in the file: a reopened replica keeps it, initial subscriptions run only
    /// on a file without any unless `rerunOnOpen`, and `update(_:onComplete:)` reports on the
    /// main queue once the data is in.
    @MainActor
    func testSubscriptionsSurviveReopeningAndInitialSubscriptionsRunOnce() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write {
            for i in 1...6 { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) }
        }
        try await wait(a, .upload)
        var b: Realm? = try await Realm(
            configuration: subscribed("b", server, db) {
                $0.append(QuerySubscription<SyncDog>(name: "old") { $0.age > 4 })
            }, downloadBeforeOpen: .always)
        XCTAssertEqual(ids(b!), [5, 6])
        b = nil
        await SyncEngine.stopAll()

        // Reopened with other initial subscriptions: the file's set stands.
        b = try await Realm(
            configuration: subscribed("b", server, db) {
                $0.append(QuerySubscription<SyncDog>(name: "young") { $0.age < 2 })
            }, downloadBeforeOpen: .always)
        XCTAssertEqual(b!.subscriptions.map(\.name), ["old"])
        XCTAssertEqual(ids(b!), [5, 6])
        b = nil
        await SyncEngine.stopAll()

        // With rerunOnOpen they run again.
        b = try await Realm(
            configuration: subscribed("b", server, db, rerunOnOpen: true) {
                $0.append(QuerySubscription<SyncDog>(name: "young") { $0.age < 2 })
            }, downloadBeforeOpen: .always)
        XCTAssertEqual(b!.subscriptions.map(\.name), ["old", "young"])
        XCTAssertEqual(ids(b!), [1, 5, 6])

        // The completion form.
        let done = expectation(description: "onComplete")
        let subs = b!.subscriptions
        subs.update(
            { subs.remove(named: "old") },
            onComplete: { error in
                XCTAssertNil(error)
                XCTAssertTrue(Thread.isMainThread)
                done.fulfill()
            })
        await fulfillment(of: [done], timeout: 60)
        XCTAssertEqual(ids(b!), [1])
        XCTAssertEqual(subs.first(ofType: SyncDog.self, where: { $0.age < 2 })?.name, "young")
        XCTAssertNil(subs.first(ofType: SyncDog.self, where: { $0.age > 4 }))

        // RealmSwift's call forms, as written: the set used by name, and as `$0`.
        try await subs.update { subs.append(QuerySubscription<SyncDog>(name: "adults") { $0.age > 5 }) }
        XCTAssertEqual(ids(b!), [1, 6])
        try await b!.subscriptions.update { $0.remove(named: "adults") }
        XCTAssertEqual(ids(b!), [1])
    }

    /// `Results.subscribe` and `unsubscribe`: RealmSwift 10.43's shorthand for one subscription.
    @MainActor
    func testResultsSubscribeAndUnsubscribe() async throws {
        let (server, db) = try freshDatabase()
        let a = try await Realm(configuration: configuration("a", server, db), downloadBeforeOpen: .always)
        try a.write { for i in 1...10 { a.add(SyncDog(value: ["id": i, "name": "dog\(i)", "age": i])) } }
        try await wait(a, .upload)
        // An empty set: nothing downloads until something is subscribed.
        let b = try await Realm(configuration: subscribed("b", server, db) { _ in }, downloadBeforeOpen: .always)
        XCTAssertEqual(ids(b), [])

        let adults = try await b.objects(SyncDog.self).where { $0.age > 5 }.subscribe()
        XCTAssertEqual(adults.count, 5)
        XCTAssertEqual(b.subscriptions.count, 1)
        XCTAssertNil(b.subscriptions.first?.name)
        _ = try await b.objects(SyncDog.self).where { $0.age > 5 }.subscribe(waitForSync: .always)
        XCTAssertEqual(b.subscriptions.count, 1, "the same query is not subscribed twice")

        let young = try await b.objects(SyncDog.self).filter("age < %@", 3).subscribe(
            name: "young", waitForSync: .never)
        XCTAssertEqual(b.subscriptions.count, 2)
        try await wait(b, .download)
        b.refresh()
        XCTAssertEqual(young.count, 2)
        XCTAssertEqual(ids(b), [1, 2, 6, 7, 8, 9, 10])

        b.objects(SyncDog.self).where { $0.age > 5 }.unsubscribe()
        XCTAssertEqual(b.subscriptions.map(\.name), ["young"])
        try await wait(b, .download)
        XCTAssertEqual(ids(b), [1, 2])

        // A realm that does not sync has nothing to subscribe to.
        let local = try Realm(
            configuration: Realm.Configuration(
                fileURL: temporaryDirectory.appendingPathComponent("local.realm"), objectTypes: [SyncDog.self]))
        do {
            _ = try await local.objects(SyncDog.self).subscribe()
            XCTFail("a local realm's results subscribed")
        } catch let e as SyncError {
            XCTAssertEqual(e.code, .invalidSubscription)
        }
    }
}
