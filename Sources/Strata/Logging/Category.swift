/// Strata's log categories, named as RealmSwift's:
///
/// ```
/// Realm
/// ├─► Storage
/// │   ├─► Transaction
/// │   ├─► Query
/// │   ├─► Object
/// │   └─► Notification
/// ├─► App
/// └─► SDK
/// ```
///
/// Setting a category's level (``Logger/setLogLevel(_:for:)``) sets its subcategories' too.
///
/// ## Concurrency
/// Plain values; `Sendable`.
public enum Category: String, LogCategory, CaseIterable {
    /// Every category.
    case realm = "Realm"
    /// The Realm API: opening, copies, compaction, seed files, migrations.
    case sdk = "Realm.SDK"
    /// Application services (unused by Strata; kept for RealmSwift's API).
    case app = "Realm.App"

    /// The storage engine's categories.
    public enum Storage: String, LogCategory, CaseIterable {
        /// Every storage category.
        case all = "Realm.Storage"
        /// Write transactions: begun, committed, cancelled.
        case transaction = "Realm.Storage.Transaction"
        /// Queries.
        case query = "Realm.Storage.Query"
        /// Objects.
        case object = "Realm.Storage.Object"
        /// Notifications: observers registered, change notifications delivered.
        case notification = "Realm.Storage.Notification"
    }

    /// Every leaf category Strata logs under (each a subcategory of `realm`).
    static let leaves: [String] =
        [Category.sdk.rawValue, Category.app.rawValue] + Storage.allCases.filter { $0 != .all }.map(\.rawValue)
}
