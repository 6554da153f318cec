import Foundation
import StrataFuzzKit
import Strata
import StrataStorage
import XCTest

/// Replays every input in `Fuzz/regressions` (each once crashed `strata-fuzz`) through the
/// fuzz harness's storage part: the run must finish (a trap stops the test process), every error
/// must be a typed `StorageError` (the harness stops on any other), and the inputs listed in
/// `expected` must fail at the step and with the error they name.
///
/// The inputs are scripts over the harness's base files; should a change to the engine's file
/// layout change those files, an input may stop reaching its bug, so each fixed bug also has a
/// test that builds the damage directly (see the comment beside each entry).
final class FuzzRegressionTests: XCTestCase {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Fuzz/regressions").standardized

    /// Input name -> the step whose error it must produce and a phrase of that error. (Since reads
    /// check every page they visit, the first two are caught by those checks, before the checks
    /// of the write path that the fuzzer found them through.)
    static let expected: [String: (step: String, phrase: String)] = [
        // StrataStorageTests.DamagedPageWriteTests.testWriteIntoANodeWhoseCellsDoNotFillItsCellAreaIsACorruptPageError
        "write-into-leaf-with-wrong-garbage-count": ("write", "do not fill the cell area"),
        // StrataStorageTests.DamagedPageWriteTests.testFreeingAnOverflowRunWithADamagedPageCountIsACorruptPageError
        "free-overflow-run-with-damaged-page-count": ("write", "corrupt at page"),
        // StrataStorageTests.DamagedPageWriteTests.testACommittedPageClaimingTheWritersVersionIsACorruptPageError
        "committed-page-claims-writer-version": ("write", "claims version"),
    ]

    func testEveryRegressionInputRunsToTheEndWithTypedErrors() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).filter {
            !$0.hasPrefix(".")
        }.sorted()
        XCTAssertFalse(names.isEmpty, "no inputs in \(Self.regressions.path)")
        let harness = try Harness(realm: false)
        defer { harness.cleanUp() }
        for name in names {
            let input = Array(try Data(contentsOf: Self.regressions.appending(path: name)))
            let outcome = harness.run(input)
            guard let want = Self.expected[name] else { continue }
            let match = outcome.errors.first { $0.step == want.step }
            XCTAssertNotNil(
                match,
                "\(name): no error at step \(want.step); errors: \(outcome.errors.map { "\($0.step): \($0.error)" })")
            if let match {
                XCTAssertTrue(match.error.description.contains(want.phrase), "\(name): \(match.error)")
            }
        }
        XCTAssertTrue(
            Set(Self.expected.keys).isSubset(of: Set(names)), "an expected input is missing from Fuzz/regressions")
    }

    /// The same inputs through the Realm API as well (`Harness(realm: true)`, no violation
    /// handler: a violation stops the test process). The `realm-violation-*` inputs each stopped
    /// the process through `fatalError` before reads of damaged files reported damage instead
    /// (Docs/Decisions.md, "Damage found by a read that cannot throw"); now every one runs to its
    /// end with typed errors and damage reports.
    func testEveryRegressionInputRunsThroughTheRealmAPIWithoutStopping() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).filter {
            !$0.hasPrefix(".")
        }.sorted()
        XCTAssertGreaterThanOrEqual(names.filter { $0.hasPrefix("realm-violation-") }.count, 19)
        let reports = Reports()
        Realm.damageHandler = {
            reports.count += 1; _ = $0
        }
        defer { Realm.damageHandler = nil }
        let harness = try Harness(realm: true)
        defer { harness.cleanUp() }
        for name in names {
            _ = harness.run(Array(try Data(contentsOf: Self.regressions.appending(path: name))))
        }
        XCTAssertGreaterThan(reports.count, 0, "the damaged Realm files were read and reported")
    }
}

private final class Reports: @unchecked Sendable {
    var count = 0
}
