import XCTest
final class StrataSchemaPlaceholderTests: XCTestCase { func testPlaceholder() {} }
