import StrataQuery

/// One step of a key path from one table to the next.
enum QueryHop {
    /// A to-one link column (`owner` in `owner.name`).
    case toOne(column: Int, target: StoreTable)
    /// A list, set or map of links (`dogs` in `dogs.name`).
    case toMany(column: Int, target: StoreTable)
    /// A `LinkingObjects` column: the objects of `origin` whose column `originColumn` links here.
    case backlinks(origin: StoreTable, originColumn: String)

    var isToMany: Bool {
        if case .toOne = self { return false }
        return true
    }
}
