/// Words that cannot start a key path. A property with one of these names is reachable with
/// `%K` or after a dot (`owner.in`).
enum QueryKeyword: String {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN", between = "BETWEEN"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE"
    // Not `.some`/`.none`: in a `QueryKeyword?` those would read as `Optional`'s cases.
    case anyQuantifier = "ANY", someQuantifier = "SOME", allQuantifier = "ALL", noneQuantifier = "NONE"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case `true` = "TRUE", `false` = "FALSE", `nil` = "NIL", null = "NULL"
    case subquery = "SUBQUERY", matches = "MATCHES"
}
