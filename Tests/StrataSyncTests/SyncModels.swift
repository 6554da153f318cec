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

/// A synced model holding embedded objects: one (with one nested), a list and a map of them
/// (one `jsonb` column each on the server).
final class SyncHouse: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var address: SyncAddress?
    @Persisted var rooms: List<SyncRoom>
    @Persisted var annexes: Map<String, SyncAddress?>
    @Persisted var note: String
}

final class SyncAddress: EmbeddedObject {
    @Persisted var street: String
    @Persisted var built: Date?
    @Persisted var geo: SyncGeo?
}

final class SyncGeo: EmbeddedObject {
    @Persisted var lat: Double
    @Persisted var lon: Double
}

final class SyncRoom: EmbeddedObject {
    @Persisted var name: String
    @Persisted var area: Double
    @Persisted var tags: List<String>
}

/// A write-only model holding an embedded object.
final class SyncSample: AsymmetricObject {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var at: SyncGeo?
}

/// A model whose embedded type holds itself: not syncable (refused at open).
final class SyncThread: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var root: SyncComment?
}

final class SyncComment: EmbeddedObject {
    @Persisted var text: String
    @Persisted var replies: List<SyncComment>
}

/// A model with a link inside an embedded object: not syncable yet (refused at open).
final class SyncYard: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var plot: SyncPlot?
}

final class SyncPlot: EmbeddedObject {
    @Persisted var keeper: SyncDog?
}

/// A synced model with AnyRealmValue values (`jsonb` columns on the server, `SyncMixed`).
final class SyncAnything: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var note: String
    @Persisted var ratio: Float
}

/// A synced model with Decimal128 values (`numeric` columns on the server).
final class SyncLedger: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var amount: Decimal128
    @Persisted var fee: Decimal128?
    @Persisted var history: List<Decimal128>
    @Persisted var limits: Map<String, Decimal128?>
}

/// A model with nothing but its primary key: not syncable (refused at open).
final class SyncKeyOnly: Object {
    @Persisted(primaryKey: true) var id: Int
}

/// A synced model with collections of values (one jsonb column each on the server).
final class SyncBag: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var tags: List<String>
    @Persisted var scores: MutableSet<Int>
    @Persisted var days: List<Date>
    @Persisted var labels: Map<String, String?>
    @Persisted var blobs: List<Data>
    @Persisted var weights: List<Double?>
}

/// A write-only model: uploaded, never kept on the device.
final class SyncReading: AsymmetricObject {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var sensor: String
    @Persisted var value: Double
}

/// A synced model with links to another synced type.
final class SyncPerson: Object {
    @Persisted(primaryKey: true) var id: String
    @Persisted var dog: SyncDog?
    @Persisted var dogs: List<SyncDog>
    @Persisted var pets: Map<String, SyncDog?>
}
