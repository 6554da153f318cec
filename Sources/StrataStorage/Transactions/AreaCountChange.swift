/// How a transaction changed the counts of one area page (areas, bytes).
struct AreaCountChange {
    var areas = 0
    var bytes = 0
}
