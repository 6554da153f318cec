import Foundation
import Strata

final class Address: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var country = ""
}

final class Person: Object {
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var address: Address?
    @Persisted var bestFriend: Person?
    @Persisted var friends: List<Person>
    @Persisted var pets: MutableSet<Pet>
}

final class Pet: Object {
    @Persisted var name = ""
}

// A property, renamed, computed from one, through an embedded object and a link, and mapped
// from a list and a set.
class PersonProjection: Projection<Person> {
    @Projected(\Person.firstName) var firstName
    @Projected(\Person.lastName) var surname
    @Projected(\Person.lastName.localizedUppercase) var surnameCaps
    @Projected(\Person.address?.city) var homeCity
    @Projected(\Person.bestFriend?.address?.country) var bestFriendCountry
    @Projected(\Person.friends.projectTo.firstName) var friendsFirstNames: ProjectedCollection<String>
    @Projected(\Person.pets.projectTo.name) var petNames: ProjectedCollection<String>
    var notProjected: Int { 0 }
}

// A public projection, nested in a type, of a class of another module (taken as written).
public enum Views {
    public final class RemoteProjection: Projection<RemoteModel> {
        @Projected(\RemoteModel.title) public var `default`
    }
}
