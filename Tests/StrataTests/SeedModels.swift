import Foundation
import Strata

// Models for the seed tests (SeedCRUDTests, SeedCreateTests, TransactionTests, MigrationTests).
// Names start with `Seed`/`Mig` so they do not clash with Models.swift.

// MARK: The seeds' Dog and Person as the "Initialize Objects with a Value" snippets use them

/// The seeds' `Dog` with exactly the two properties the array snippets give
/// (`Dog(value: ["Fido", 5])`, `["dogs": [["Buster", 5]]]`), so those snippets run verbatim.
/// (Models.swift's `Dog` has four stored properties, so there the arrays need four values.)
class SeedDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

/// The seeds' `Person` (`Person(value: [123, "Jane", [["Buster", 5], ["Buddy", 6]]])`):
/// primary key, name, and a list of `SeedDog`.
class SeedPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<SeedDog>
}

// MARK: Seed 002 ("Use Create to Copy an Object Into the Realm"): the DoggoDB Dog with a to-one DogToy

/// The DoggoDB `Dog` of seed 002: UUID primary key and an optional `favoriteToy` object.
class SeedDoggoDog: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: UUID
    @Persisted var name = ""
    @Persisted var favoriteToy: SeedDoggoToy?
}

/// The DoggoDB `DogToy` of seed 002.
class SeedDoggoToy: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var name = ""
}

/// The DoggoDB `Person` of seed 002, owning `SeedDoggoDog`s.
class SeedDoggoPerson: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var _id: ObjectId
    @Persisted var firstName = ""
    @Persisted var dogs: List<SeedDoggoDog>
}

// MARK: Update policies and nested creates

/// Several plain properties, to tell `.modified`/`.all` updates of some properties from others.
class SeedProfile: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var city = ""
}

/// A linked object with a primary key: nested creates upsert it by key.
class SeedPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
}

/// An owner with a to-one and a to-many link to `SeedPet` and an embedded address.
class SeedOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var pet: SeedPet?
    @Persisted var pets: List<SeedPet>
    @Persisted var address: SeedAddress?
}

/// Embedded in `SeedOwner`; deleted with it.
class SeedAddress: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

// MARK: New-schema classes of MigrationTests
// Each is the "new" version of a class whose "old" version is written with a hand-written
// conformance in MigrationTests.swift (same `strataObjectSchema.className`, other properties).

/// Additive change: `nickname`, `score` and `rank` are new.
class MigAdditive: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var nickname = ""
    @Persisted var score = 7
    @Persisted var rank: Int?
}

/// Type change: `age` was an `Int`, now a `String`.
class MigRetyped: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var age = ""
}

/// Rename: `firstName` became `givenName`.
class MigRenamed: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var givenName = ""
    @Persisted var age = 0
}

/// Unchanged class kept while another class (`MigGone`) is dropped by `deleteData(forType:)`.
class MigKeep: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// Unchanged class whose objects a migration deletes with `deleteData(forType:)`.
class MigCleared: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = 0
}

/// Dropped from the schema by a migration's `deleteData(forType:)`.
class MigGone: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
}
