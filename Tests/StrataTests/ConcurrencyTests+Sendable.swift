import Foundation
import Strata
import XCTest

/// Sendable.
extension ConcurrencyTests {
    /// The Sendable story (a compile-time check).
    func testSendableTypes() {
        assertSendable(ThreadSafeReference<Dog>.self)
        assertSendable(ThreadSafeReference<Results<Dog>>.self)
        assertSendable(Realm.Configuration.self)
        assertSendable(Realm.Error.self)
        assertSendable(ThreadSafe<Dog>.self)
    }
}
