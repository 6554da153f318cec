import Foundation
import Strata

// Models for the object behaviour tests: identity, key-value coding, descriptions, creation from
// arrays, freeing cycles, embedded objects and thread-safe wrappers.

/// A model with a primary key: managed copies of one stored object are equal.
final class KeyedPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

/// A model without a primary key: live objects compare by instance, frozen ones by stored object.
final class PlainPet: Object, ObjectKeyIdentifiable {
    @Persisted var name = ""
    @Persisted var age = 0
}

/// Two objects of this class that link each other form a cycle.
final class CircleNode: Object {
    @Persisted var name = ""
    @Persisted var obj: CircleNode?
    @Persisted var array: List<CircleNode>
}

/// An embedded address, for `EmbeddedObject(value:)` and freezing embedded objects.
final class PostalAddress: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
}

/// A contact with every kind of property key-value coding and descriptions reach.
final class Contact: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname: String?
    @Persisted var address: PostalAddress?
    @Persisted var tags: List<String>
    @Persisted var friends: List<Contact>
    @Persisted(originProperty: "friends") var friendOf: LinkingObjects<Contact>
}

/// A model whose `String` primary key has a default value.
final class DefaultKeyed: Object {
    @Persisted(primaryKey: true) var code = "none"
    @Persisted var count = 0
}

/// A model whose `String` primary key has no declared default.
final class RequiredKeyed: Object {
    @Persisted(primaryKey: true) var code: String
    @Persisted var count = 0
}
