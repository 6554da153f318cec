import Foundation
@testable import Strata
import XCTest

// Seed 002's quick writes through `$`-bindings, each example's binding lines as the seed writes
// them (its `View` structs need SwiftUI; their bodies' lines run here on Linux), and the rules
// the seed states: a binding write thaws the frozen object and writes in a transaction of its
// own, or joins the current one; an unchanged value is not written; failures go to
// `Realm.quickWriteErrorHandler` and leave the data unchanged.

final class QuickWriteBindingTests: QuickWriteTestCase {
    override func setUp() {
        super.setUp()
        Realm.Configuration.defaultConfiguration = config()
    }

    private func addDog(_ realm: Realm, name: String = "Rex", toy: String = "ball") throws -> QuickDog {
        let dog = QuickDog(value: ["name": name, "favoriteToy": toy])
        try realm.write { realm.add(dog) }
        return dog
    }

    // MARK: Update an object's properties (EditDogDetails)

    func testEditDogDetailsTextFieldWritesTheFavoriteToy() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        XCTAssertTrue(dog.isFrozen, "the wrapper hands out the frozen dog")
        // Text(dog.name)
        XCTAssertEqual(dog.name, "Rex")
        let field = TextField("Favorite toy", text: $dog.favoriteToy)
        field.type("Wubba")
        XCTAssertFalse(realm.isInWriteTransaction, "the quick write committed")
        realm.refresh()
        XCTAssertEqual(managed.favoriteToy, "Wubba")
        spin(until: { dog.favoriteToy == "Wubba" })
        XCTAssertTrue(dog.isFrozen)
        XCTAssertEqual(reported.value, [])
    }

    func testBindingSkipsAValueThatDidNotChange() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        let before = realm.file.db.latestVersion
        $dog.favoriteToy.wrappedValue = "ball"
        XCTAssertEqual(realm.file.db.latestVersion, before, "no commit for an unchanged value")
        $dog.favoriteToy.wrappedValue = "rope"
        XCTAssertGreaterThan(realm.file.db.latestVersion.rawValue, before.rawValue)
    }

    func testBindingInsideAnExplicitWriteJoinsIt() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        realm.beginWrite()
        $dog.favoriteToy.wrappedValue = "rope"
        XCTAssertTrue(realm.isInWriteTransaction, "the binding joined the open transaction")
        XCTAssertEqual(managed.favoriteToy, "rope")
        realm.cancelWrite()
        XCTAssertEqual(managed.favoriteToy, "ball", "cancelling the explicit write undid the binding's write")
        try realm.write {
            $dog.name.wrappedValue = "Max"
            managed.breed = "beagle"
        }
        XCTAssertEqual(managed.name, "Max")
        XCTAssertEqual(managed.breed, "beagle")
        XCTAssertEqual(reported.value, [])
    }

    func testBindOnAnObjectWritesImplicitly() throws {
        let realm = try open()
        let managed = try addDog(realm)
        let frozen = managed.freeze()
        let weight = frozen.bind(\.weight)
        weight.wrappedValue = 12
        realm.refresh()
        XCTAssertEqual(managed.weight, 12)
        XCTAssertEqual(weight.wrappedValue, 12)
    }

    func testUnmanagedObjectBindingWritesTheObject() throws {
        @StateRealmObject var dog = QuickDog()
        $dog.name.wrappedValue = "Rex"
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertNil(dog.realm)
    }

    // MARK: Add or remove objects in an ObservedResults collection (DogsListView)

    func testDogsListViewAppendsAndRemovesThroughTheBoundResults() throws {
        let realm = try open()
        _ = try addDog(realm, name: "Ace")
        @ObservedResults(QuickDog.self) var dogs
        XCTAssertEqual(dogs.map(\.name), ["Ace"])
        XCTAssertTrue(dogs.isFrozen)
        // Button(action: { $dogs.append(Dog(value: ["name":"Bandido"])) })
        $dogs.append(QuickDog(value: ["name": "Bandido"]))
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).map(\.name).sorted(), ["Ace", "Bandido"])
        spin(until: { dogs.count == 2 })
        // ForEach(dogs) { ... }.onDelete(perform: $dogs.remove)
        let rows = DeletableRows().onDelete(perform: $dogs.remove)
        rows.swipeToDelete(row: 0)
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).map(\.name), ["Bandido"])
        spin(until: { dogs.map(\.name) == ["Bandido"] })
        XCTAssertEqual(reported.value, [])
    }

    func testObservedResultsWhereAndSortAndRemoveObject() throws {
        let realm = try open()
        for (name, weight) in [("Cleo", 30), ("Ace", 12), ("Bo", 3)] {
            _ = try addDog(realm, name: name).freeze()
            try realm.write { realm.objects(QuickDog.self).first { $0.name == name }!.weight = weight }
        }
        @ObservedResults(QuickDog.self, where: { $0.weight > 5 }, sortDescriptor: SortDescriptor(keyPath: "name"))
        var dogs
        XCTAssertEqual(dogs.map(\.name), ["Ace", "Cleo"])
        $dogs.remove(dogs[0])
        realm.refresh()
        XCTAssertEqual(realm.objects(QuickDog.self).map(\.name).sorted(), ["Bo", "Cleo"])
        spin(until: { dogs.map(\.name) == ["Cleo"] })
        @ObservedResults(QuickDog.self, filter: "weight < 5") var small
        XCTAssertEqual(small.map(\.name), ["Bo"])
    }

    // MARK: Append an object to a list (AddDogToPersonView)

    private func createDog(
        name: String, breed: String, weight: Int, favoriteToy: String, profileImageUrl: URL?
    )
        -> QuickDog
    {
        QuickDog(value: [
            "name": name, "breed": breed, "weight": weight, "favoriteToy": favoriteToy,
            "profileImageUrl": profileImageUrl?.absoluteString as Any,
        ])
    }

    func testAddDogToPersonViewAppendsTheNewDogToTheList() throws {
        let realm = try open()
        let ann = QuickPerson(value: ["firstName": "Ann"])
        try realm.write { realm.add(ann) }
        @ObservedRealmObject var person = ann
        var isInAddDogView = true
        let name = "Maui", breed = "Husky", weight = 20, favoriteToy = "Frisbee"
        let profileImageUrl = URL(string: "https://example.com/maui.png")
        // Button(action: { ... })
        let dog = createDog(
            name: name, breed: breed, weight: weight, favoriteToy: favoriteToy, profileImageUrl: profileImageUrl)
        $person.dogs.append(dog)
        isInAddDogView.toggle()
        XCTAssertFalse(isInAddDogView)
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["Maui"])
        XCTAssertEqual(ann.dogs.first?.profileImageUrl, "https://example.com/maui.png")
        spin(until: { person.dogs.count == 1 })
        XCTAssertEqual(person.dogs.first?.breed, "Husky")
        XCTAssertEqual(reported.value, [])
    }

    func testListBindingMovesAndRemoves() throws {
        let realm = try open()
        let ann = QuickPerson(value: ["firstName": "Ann", "dogs": [["name": "A"], ["name": "B"], ["name": "C"]]])
        try realm.write { realm.add(ann) }
        @ObservedRealmObject var person = ann
        $person.dogs.move(fromOffsets: IndexSet(integer: 0), toOffset: 3)
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["B", "C", "A"])
        $person.dogs.remove(atOffsets: IndexSet(integer: 1))
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["B", "A"])
        $person.dogs.remove(ann.dogs[0].freeze())
        realm.refresh()
        XCTAssertEqual(ann.dogs.map(\.name), ["A"])
        XCTAssertEqual(realm.objects(QuickDog.self).count, 3, "removing from a list keeps the objects")
    }

    func testSetAndMapBindingsWriteImplicitly() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        $dog.tags.insert("good")
        $dog.vetNotes.set(object: "healthy", for: "2024")
        realm.refresh()
        XCTAssertEqual(Array(managed.tags), ["good"])
        XCTAssertEqual(managed.vetNotes["2024"], "healthy")
        $dog.tags.remove("good")
        $dog.vetNotes.set(object: nil, for: "2024")
        realm.refresh()
        XCTAssertEqual(managed.tags.count, 0)
        XCTAssertNil(managed.vetNotes["2024"])
    }

    func testDeleteThroughTheBinding() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        $dog.delete()
        realm.refresh()
        XCTAssertTrue(managed.isInvalidated)
        XCTAssertEqual(realm.objects(QuickDog.self).count, 0)
        spin(until: { dog.realm == nil })
        XCTAssertEqual(dog.name, "", "a deleted object's wrapper hands out a new unmanaged object")
    }

    // MARK: Use create to copy an object into the realm

    func testAppendingADogWhoseToyBelongsToAnotherRealmReportsTheSeedsErrorAndChangesNothing() throws {
        let realm = try open()
        let toys = try open("toys.realm")
        let wubba = SeedDoggoToy(value: ["name": "Wubba"])
        try toys.write { toys.add(wubba) }
        let owner = SeedDoggoPerson(value: ["firstName": "Ann"])
        try realm.write { realm.add(owner) }
        @ObservedRealmObject var person = owner
        let dog = SeedDoggoDog(value: ["name": "Maui"])
        dog.favoriteToy = wubba
        $person.dogs.append(dog)
        XCTAssertEqual(
            reported.value.map {
                $0.contains(
                    "Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            },
            [true])
        XCTAssertFalse(realm.isInWriteTransaction)
        realm.refresh()
        XCTAssertEqual(owner.dogs.count, 0)
        XCTAssertEqual(realm.objects(SeedDoggoDog.self).count, 0)
        XCTAssertEqual(realm.objects(SeedDoggoToy.self).count, 0)

        // The seed's fix: create the dog with `update: .modified`, copying the toy.
        let frozenPerson = person
        let thawedPersonRealm = frozenPerson.thaw()!.realm!
        let person2 = frozenPerson.thaw()!
        try! thawedPersonRealm.write {
            // Use the .create method with `update: .modified` to copy the
            // existing object into the realm
            let dog = thawedPersonRealm.create(
                SeedDoggoDog.self, value: ["name": "Maui", "favoriteToy": wubba], update: .modified)
            person2.dogs.append(dog)
        }
        XCTAssertEqual(owner.dogs.map(\.name), ["Maui"])
        XCTAssertEqual(owner.dogs.first?.favoriteToy?.name, "Wubba")
        XCTAssertEqual(owner.dogs.first?.favoriteToy?._id, wubba._id)
        XCTAssertEqual(toys.objects(SeedDoggoToy.self).count, 1, "the other realm keeps its toy")
    }

    func testAppendingAnObjectOfAnotherRealmToResultsReportsTheError() throws {
        let realm = try open()
        let other = try open("other.realm")
        let stranger = QuickDog(value: ["name": "Stranger"])
        try other.write { other.add(stranger) }
        @ObservedResults(QuickDog.self) var dogs
        $dogs.append(stranger)
        XCTAssertEqual(
            reported.value,
            ["Object is already managed by another Realm. Use create instead to copy it into this Realm."])
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(QuickDog.self).count, 0)
    }

    func testWritingADeletedObjectsBindingReportsItAndWritesNothing() throws {
        let realm = try open()
        let managed = try addDog(realm)
        @ObservedRealmObject var dog = managed
        let toy = $dog.favoriteToy
        try realm.write { realm.delete(managed) }
        toy.wrappedValue = "rope"
        XCTAssertEqual(reported.value.count, 1)
        XCTAssertTrue(reported.value.first?.contains("deleted") ?? false, "\(reported.value)")
        XCTAssertEqual(toy.wrappedValue, "ball", "the binding reads the last value it saw")
        XCTAssertFalse(realm.isInWriteTransaction)
    }

    // MARK: Perform an explicit write

    private func performAnExplicitWrite(company: QuickCompany, employeeName: String, dogName: String) {
        // Get the realm that is managing the `Company` object you passed in.
        // Thaw the realm so you can write to it.
        let realm = company.realm!.thaw()
        // Thawing the `Company` object that you passed in also thaws the objects in its List properties.
        // This lets you append the `Dog` to the `Employee` without individually thawing both of them.
        let thawedCompany = company.thaw()!
        let thisEmployee = thawedCompany.employees.where { $0.name == employeeName }.first!
        let thisDog = thawedCompany.dogs.where { $0.name == dogName }.first!
        try! realm.write {
            thisEmployee.dogs.append(thisDog)
        }
    }

    func testPerformAnExplicitWriteWithAFrozenCompany() throws {
        let realm = try open()
        let acme = QuickCompany(value: [
            "companyName": "Acme", "employees": [["name": "Dachary"], ["name": "Lee"]],
            "dogs": [["name": "Maui"], ["name": "Rex"]],
        ])
        try realm.write { realm.add(acme) }
        @ObservedRealmObject var company = acme
        let frozenCompany = company
        XCTAssertTrue(frozenCompany.isFrozen)
        // The `frozenCompany` here represents an `@ObservedRealmObject var company: Company`
        performAnExplicitWrite(company: frozenCompany, employeeName: "Dachary", dogName: "Maui")
        realm.refresh()
        XCTAssertEqual(acme.employees[0].dogs.map(\.name), ["Maui"])
        XCTAssertEqual(acme.employees[1].dogs.count, 0)
        XCTAssertEqual(realm.objects(QuickDog.self).count, 2, "the existing dog was linked, not copied")
        spin(until: { company.employees.first?.dogs.count == 1 })
    }
}
