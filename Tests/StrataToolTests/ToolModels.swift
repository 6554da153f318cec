import Foundation
import Strata

// Models of an app whose files the `strata` tool reads without them.

class ToolDog: Object {
    @Persisted var name = ""
    @Persisted(indexed: true) var age = 0
    @Persisted var weight: Double?
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var photo = Data()
    @Persisted var tags: List<String>
}

class ToolOwner: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var dogs: List<ToolDog>
    @Persisted var favorite: ToolDog?
    @Persisted var extra: AnyRealmValue
}
