/// The storage type of a property, with Realm's names (all integer widths are `int`).
package enum StorageType: String, Sendable, Codable, CaseIterable {
    case bool, int, float, double, string, data, date, decimal128, objectId, uuid, any, object, linkingObjects
}
