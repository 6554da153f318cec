import Foundation
import Strata

// Models for the value-type tests: Decimal128 amounts, AnyRealmValue payloads, ObjectId keys.

class Invoice: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var customer = ""
    @Persisted var total: Decimal128
    @Persisted var discount: Decimal128?
    @Persisted var payload: AnyRealmValue
    @Persisted var reference: ObjectId
}
