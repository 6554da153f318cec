import XCTest
final class P1: XCTestCase { func testP() {} }
