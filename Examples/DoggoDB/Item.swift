import Strata

/// The status of an `Item` (the docs' `ItemStatus`), stored as its raw string.
enum ItemStatus: String, PersistableEnum {
    case open = "Open"
    case inProgress = "In Progress"
    case closed = "Closed"
}

/// A task item (Realm docs, "Write Asynchronously" and "Upsert").
class Item: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
    @Persisted var status = ItemStatus.open
    @Persisted var assignee: String?
}
