import Foundation
import Strata

/// A synced model with one field of each kind the tests need.
final class SyncDog: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
    @Persisted var weight: Double?
    @Persisted var born: Date
}

/// A synced model with a String primary key.
final class SyncNote: Object {
    @Persisted(primaryKey: true) var id: String
    @Persisted var text: String
    @Persisted var tag: UUID?
    @Persisted var blob: Data
}

/// A model with a list: not syncable yet.
final class SyncListOwner: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var tags: List<String>
}

/// A write-only model: uploaded, never kept on the device.
final class SyncReading: AsymmetricObject {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var sensor: String
    @Persisted var value: Double
}
