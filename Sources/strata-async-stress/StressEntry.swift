import Foundation
import Strata

/// One committed write of the stress loop.
final class StressEntry: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var payload = ""
}
