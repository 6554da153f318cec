import Foundation
import Strata
import XCTest

/// `Realm.Error`: RealmSwift's codes and pattern matching, and `catch let error as NSError`
/// (the seeds' handler) catching Strata's errors on Linux.
final class RealmErrorTests: SeedTestCase {
    private func openMissingReadOnly() throws {
        var c = config("missing.realm")
        c.readOnly = true
        _ = try Realm(configuration: c)
    }

    func testOpenErrorIsCaughtAsNSErrorWithDomainCodeAndMessage() throws {
        var caught: NSError?
        do {
            try openMissingReadOnly()
        } catch let error as NSError {
            caught = error
        }
        let error = try XCTUnwrap(caught, "a Realm.Error must be an NSError, so the seeds' handler catches it")
        XCTAssertEqual(error.domain, "io.realm")
        XCTAssertEqual(error.code, 5, "RealmSwift's RLMErrorFileNotFound")
        XCTAssertTrue(error.localizedDescription.contains(url("missing.realm").path), error.localizedDescription)
        XCTAssertEqual(error.userInfo[NSFilePathErrorKey] as? String, url("missing.realm").path)
    }

    func testFailedWriteIsCaughtAsNSErrorAndNothingIsWritten() throws {
        let realm = try open()
        try realm.write { realm.add(SeedPerson(value: ["id": 1, "name": "Ann"])) }
        var caught: NSError?
        do {
            try realm.write {
                realm.add(SeedPerson(value: ["id": 2, "name": "Bob"]))
                realm.add(SeedPerson(value: ["id": 1, "name": "Duplicate"]))
            }
        } catch let error as NSError {
            caught = error
        }
        let error = try XCTUnwrap(caught)
        XCTAssertEqual(error.domain, Realm.Error.errorDomain)
        XCTAssertEqual(error.code, Realm.Error.Code.primaryKeyExists.rawValue)
        XCTAssertTrue(error.code == .primaryKeyExists)
        XCTAssertFalse(error.localizedDescription.isEmpty)
        XCTAssertEqual(realm.objects(SeedPerson.self).map(\.name), ["Ann"])
    }

    func testCatchMatchesACodeAsInRealmSwift() {
        var matched = ""
        do {
            try openMissingReadOnly()
        } catch Realm.Error.fileAccess {
            matched = "fileAccess"
        } catch Realm.Error.fileNotFound {
            matched = "fileNotFound"
        } catch {
            matched = "other: \(error)"
        }
        XCTAssertEqual(matched, "fileNotFound")
    }

    func testTypedCatchGivesCodeMessageAndFileURL() throws {
        do {
            try openMissingReadOnly()
            XCTFail("opened a missing file read-only")
        } catch let error as Realm.Error {
            XCTAssertTrue(error.code == .fileNotFound)
            XCTAssertFalse(error.code == .fileAccess)
            XCTAssertTrue(error.code != .fail)
            XCTAssertEqual(error.realmCode, .fileNotFound)
            XCTAssertEqual(error.fileURL?.path, url("missing.realm").path)
            XCTAssertTrue(error.message.contains("read-only"), error.message)
            XCTAssertEqual(error.description, error.message)
        }
    }

    func testSwitchOnTheCodeMatchesCodeCases() throws {
        var matched = ""
        do {
            try openMissingReadOnly()
        } catch let error as Realm.Error {
            switch error.code {
            case .fileAccess: matched = "fileAccess"
            case .fileNotFound: matched = "fileNotFound"
            default: matched = "other \(error.code)"
            }
        }
        XCTAssertEqual(matched, "fileNotFound")
    }

    func testCodesHaveRealmSwiftsRawValues() {
        let expected: [Realm.Error.Code: Int] = [
            .fail: 1, .fileAccess: 2, .filePermissionDenied: 3, .fileExists: 4, .fileNotFound: 5,
            .fileFormatUpgradeRequired: 6, .incompatibleLockFile: 8, .addressSpaceExhausted: 9, .schemaMismatch: 10,
            .alreadyOpen: 12, .invalidInput: 13, .outOfDiskSpace: 14, .invalidDatabase: 20,
        ]
        for (code, raw) in expected { XCTAssertEqual(code.rawValue, raw, "\(code)") }
        let all = Realm.Error.Code.allCases.map(\.rawValue)
        XCTAssertEqual(Set(all).count, all.count, "codes are distinct")
        XCTAssertTrue(
            Realm.Error.Code.allCases.filter { expected[$0] == nil }.allSatisfy { $0.rawValue > 1000 },
            "Strata's own codes stay clear of RealmSwift's")
    }

    func testErrorsWithEqualCodeAndMessageAreEqual() {
        let a = Realm.Error(.invalidValue, "bad value")
        XCTAssertEqual(a, Realm.Error(.invalidValue, "bad value"))
        XCTAssertNotEqual(a, Realm.Error(.invalidValue, "other"))
        XCTAssertNotEqual(a, Realm.Error(.missingValue, "bad value"))
        XCTAssertEqual(a.hash, Realm.Error(.invalidValue, "bad value").hash)
    }
}
