import Foundation
import Strata
import StrataCore
import XCTest

@testable import StrataSync

/// A new object reaches the server as one plain insert with one row clock (`_strata_clock`) for
/// its fields (Docs/Sync.md, "The data model"). These tests hold the rules that keep that equal
/// to the merge it replaces: the other columns of the table listed at the zero clock, a newer
/// tombstone sending the object to the merge, a row already there (a replay) merged, and SQL
/// edits stamped above the row clock.
final class SyncNewObjectRowTests: SyncTestCase {
    /// Now as a clock reading plus `hours`, from replica node 7.
    private func clock(hours: Double = 0) -> SyncClock {
        SyncClock(time: UInt64((Date().timeIntervalSince1970 + hours * 3600) * 1000) << 16, node: 7)
    }

    @MainActor
    func testANewObjectIsOneRowClockAndAReplayOfItMerges() async throws {
        let u = try await uploader()
        let c = clock()
        let op = try newDog(2, "Max", c, u.tables)
        let first = try await u.link.upload(client: u.client, entries: [(100, [op])], tables: u.tables)
        XCTAssertNotNil(first.newRowsOnly, "a new object is a plain insert")
        XCTAssertEqual(
            try u.server.sql(
                "SELECT name, _strata_clock, _strata_clocks::text FROM \"SyncDog\" WHERE id = 2", database: u.db),
            "Max|\(c.text)|{}\n")
        let row = try u.server.sql("SELECT \"SyncDog\"::text FROM \"SyncDog\" WHERE id = 2", database: u.db)

        // The same batch again (its acknowledgement lost): the insert meets the row, the
        // transaction is rolled back, and the next attempt merges (changing nothing).
        do {
            _ = try await u.link.upload(client: u.client, entries: [(100, [op])], tables: u.tables)
            XCTFail("the plain insert of a row the server has fails")
        } catch let e as SyncError {
            XCTAssertEqual(e.sqlState, "23505", "\(e)")
        }
        let again = try await u.link.upload(client: u.client, entries: [(100, [op])], tables: u.tables)
        XCTAssertNil(again.newRowsOnly, "sent again, it merged")
        XCTAssertEqual(try u.server.sql("SELECT \"SyncDog\"::text FROM \"SyncDog\" WHERE id = 2", database: u.db), row)
        // And the next batch inserts plainly again.
        let next = try await u.link.upload(
            client: u.client, entries: [(101, [try newDog(3, "Ace", clock(), u.tables)])], tables: u.tables)
        XCTAssertNotNil(next.newRowsOnly)
        await u.link.close()
    }

    @MainActor
    func testATombstoneAtOrAboveTheNewObjectsClockSendsItToTheMerge() async throws {
        let u = try await uploader()
        let c = clock()
        let later = SyncClock(time: c.time + 1, node: 1)
        let earlier = SyncClock(time: c.time - 1, node: 9)
        try u.server.sql(
            "INSERT INTO strata_tombstones (tbl, pk, clock) VALUES ('SyncDog', '4', '\(later.text)'), ('SyncDog', '5', '\(earlier.text)')",
            database: u.db)
        // Object 4 was deleted after this write: it stays deleted. Object 5's delete is older:
        // the write brings it back, and a plain insert is exactly that.
        let deleted = try await u.link.upload(
            client: u.client, entries: [(100, [try newDog(4, "Gone", c, u.tables)])], tables: u.tables)
        XCTAssertNil(deleted.newRowsOnly, "merged")
        let revived = try await u.link.upload(
            client: u.client, entries: [(101, [try newDog(5, "Back", c, u.tables)])], tables: u.tables)
        XCTAssertNotNil(revived.newRowsOnly, "inserted")
        XCTAssertEqual(
            try u.server.sql("SELECT id, name, _strata_clock FROM \"SyncDog\" WHERE id IN (4, 5)", database: u.db),
            "5|Back|\(c.text)\n")
        // In one batch: the first insert finds 10's tombstone and inserts nothing; 10 goes to the
        // merge and the second inserts 11.
        try u.server.sql(
            "INSERT INTO strata_tombstones (tbl, pk, clock) VALUES ('SyncDog', '10', '\(later.text)')", database: u.db)
        let both = try await u.link.upload(
            client: u.client,
            entries: [(102, [try newDog(10, "Ten", c, u.tables), try newDog(11, "Eleven", c, u.tables)])],
            tables: u.tables)
        XCTAssertNil(both.newRowsOnly, "10 merged")
        XCTAssertEqual(
            try u.server.sql("SELECT id, name, _strata_clock FROM \"SyncDog\" WHERE id IN (10, 11)", database: u.db),
            "11|Eleven|\(c.text)\n")
        await u.link.close()
    }

    @MainActor
    func testColumnsTheModelLacksAreListedAtTheZeroClock() async throws {
        let u = try await uploader()
        // A column another (newer) model of SyncDog has: this replica's insert does not write
        // it, so the row clock must not cover it.
        try u.server.sql("ALTER TABLE \"SyncDog\" ADD COLUMN extra text", database: u.db)
        let c = clock()
        _ = try await u.link.upload(
            client: u.client, entries: [(100, [try newDog(6, "Six", c, u.tables)])], tables: u.tables)
        XCTAssertEqual(
            try u.server.sql("SELECT _strata_clocks::text FROM \"SyncDog\" WHERE id = 6", database: u.db),
            "{\"extra\": \"\(SyncClock.zero.text)\"}\n")
        await u.link.close()
    }

    @MainActor
    func testARowReadsItsRowClockForEveryFieldItsClocksDoNotList() async throws {
        let u = try await uploader()
        let t = try XCTUnwrap(u.tables["SyncDog"])
        let a = SyncClock(time: 5 << 16, node: 2)
        let b = SyncClock(time: 6 << 16, node: 3)
        // Written as the uploader writes (the row triggers skip it).
        try u.server.sql(
            """
            SELECT set_config('strata.applying', 'on', true);
            INSERT INTO "SyncDog" (id, name, _strata_clock, _strata_clocks) VALUES (8, 'Eight', '\(a.text)', '{"age": "\(b.text)"}');
            INSERT INTO "SyncDog" (id, name, _strata_clocks) VALUES (9, 'Nine', '{"age": "\(b.text)"}');
            """, database: u.db)
        let rows = try await u.link.rows(
            "SELECT \(t.selectList) FROM \"SyncDog\" WHERE id IN (8, 9) ORDER BY id")
        await u.link.close()
        XCTAssertEqual(rows.count, 2)
        let (key, fields) = try XCTUnwrap(try SyncServerLink.decodeRow(rows[0], t))
        XCTAssertEqual(key, "8")
        XCTAssertEqual(fields["age"]?.clock, b)
        XCTAssertEqual(fields["name"]?.clock, a)
        XCTAssertEqual(fields["born"]?.clock, a)
        let (_, old) = try XCTUnwrap(try SyncServerLink.decodeRow(rows[1], t))
        XCTAssertEqual(old["age"]?.clock, b)
        XCTAssertEqual(old["name"]?.clock, .zero, "no row clock: not written since the row was made")
    }

    /// An SQL edit is stamped above every clock of the row, the row clock included, even one
    /// ahead of the server's wall clock: otherwise the replicas would keep their older value.
    @MainActor
    func testSQLEditsAreStampedAboveTheRowClock() async throws {
        let u = try await uploader()
        let ahead = clock(hours: 1)
        _ = try await u.link.upload(
            client: u.client, entries: [(100, [try newDog(7, "Ahead", ahead, u.tables)])], tables: u.tables)
        await u.link.close()
        try u.server.sql("UPDATE \"SyncDog\" SET name = 'Edited' WHERE id = 7", database: u.db)
        XCTAssertEqual(
            try u.server.sql(
                "SELECT _strata_clocks->>'name' COLLATE \"C\" > _strata_clock COLLATE \"C\", _strata_clock FROM \"SyncDog\" WHERE id = 7",
                database: u.db),
            "t|\(ahead.text)\n", "the edited field above the row clock, which still covers the others")
        try await wait(u.realm, .download)
        u.realm.refresh()
        XCTAssertEqual(u.realm.object(ofType: SyncDog.self, forPrimaryKey: 7)?.name, "Edited")
        try u.server.sql("DELETE FROM \"SyncDog\" WHERE id = 7", database: u.db)
        XCTAssertEqual(
            try u.server.sql(
                "SELECT clock COLLATE \"C\" > '\(ahead.text)' FROM strata_tombstones WHERE pk = '7'", database: u.db),
            "t\n", "the delete above the row clock")
        try await wait(u.realm, .download)
        u.realm.refresh()
        XCTAssertNil(u.realm.object(ofType: SyncDog.self, forPrimaryKey: 7))
    }
}
