import XCTest
final class P2: XCTestCase { func testP() {} }
