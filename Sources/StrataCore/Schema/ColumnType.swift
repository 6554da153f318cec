/// The storage type of one column (for collections: of one element).
///
/// ## Concurrency
/// A plain value; `Sendable`.
package enum ColumnType: UInt8, Sendable, Hashable {
    case int = 1, bool, float, double, string, data, timestamp, objectId, uuid, decimal128
    /// `AnyRealmValue`: a tagged value of any of the other types, or a typed link.
    case mixed
    /// A link to an object of `StoreColumn.targetTable`.
    case link
    /// `LinkingObjects`: computed from backlinks, never stored in the row.
    case linkingObjects

    /// Bytes of the column's slot in a row (see FORMAT.md, "Object rows").
    var slotSize: Int {
        switch self {
        case .bool: 1
        case .float: 4
        case .int, .double, .link: 8
        case .timestamp, .objectId: 12
        case .uuid, .decimal128: 16
        case .string, .data, .mixed: 8  // u32 offset, u32 length into the row's variable area
        case .linkingObjects: 0
        }
    }
}
