import Foundation
import Strata

enum Mood: String, PersistableEnum {
    case happy, grumpy
}

enum Priority: Int, PersistableEnum {
    case low = 1, high = 2
}

/// One property of every supported kind.
final class AllTypes: Object {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var bool = false
    @Persisted var int = 0
    @Persisted var int8: Int8
    @Persisted var int16: Int16
    @Persisted var int32: Int32
    @Persisted var int64: Int64
    @Persisted var float: Float
    @Persisted var double = 0.0
    @Persisted var string = ""
    @Persisted var data: Data
    @Persisted var date = Date()
    @Persisted var decimal: Decimal128
    @Persisted var uuid: UUID
    @Persisted var any: AnyRealmValue
    @Persisted var optionalInt: Int?
    @Persisted var optionalString: String?
    @Persisted var mood = Mood.happy
    @Persisted var priority: Priority?
    @Persisted var strings: List<String>
    @Persisted var optionalInts: List<Int?>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var moods: List<Mood>
}
