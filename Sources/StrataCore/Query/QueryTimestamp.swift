import StrataQuery

/// A date as a comparable pair (seconds, then nanoseconds; both carry the sign, as in Realm).
struct QueryTimestamp: Comparable {
    let seconds: Int64
    let nanoseconds: Int32
    static func < (a: QueryTimestamp, b: QueryTimestamp) -> Bool {
        a.seconds != b.seconds ? a.seconds < b.seconds : a.nanoseconds < b.nanoseconds
    }
}
