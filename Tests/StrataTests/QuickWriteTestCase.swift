@testable import Strata
import XCTest

/// Base of the quick-write tests: errors of implicit writes go to `reported` (through
/// `Realm.quickWriteErrorHandler`, reset after each test) instead of the log.
class QuickWriteTestCase: ObservationTestCase {
    /// The errors the test's quick writes reported, in order.
    var reported: Locked<[String]> = Locked([])

    override func setUp() {
        super.setUp()
        let reported = Locked<[String]>([])
        self.reported = reported
        Realm.quickWriteErrorHandler = { error in reported.mutate { $0.append("\(error)") } }
    }

    override func tearDown() {
        Realm.quickWriteErrorHandler = nil
        super.tearDown()
    }
}
