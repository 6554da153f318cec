// DoggoDB: dogs, their people and their toys in a Realm file. Creates, upserts, looks up, updates and deletes
// Dogs, Persons and DogToys in a temporary directory, printing each step. Deterministic: fixed
// primary keys, no random values printed.
import Foundation
import Strata

let dir = FileManager.default.temporaryDirectory.appendingPathComponent("DoggoDB-\(getpid())")
try? FileManager.default.removeItem(at: dir)
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
let config = Realm.Configuration(fileURL: dir.appendingPathComponent("doggo.realm"))

let dacharyId = try ObjectId(string: "000000000000000000000001")
let wubbaId = try ObjectId(string: "0000000000000000000000a1")
let ballId = try ObjectId(string: "0000000000000000000000a2")

func describe(_ dog: Dog) -> String {
    "\(dog.name) (\(dog.breed), \(dog.weight) kg, toy: \(dog.favoriteToy?.name ?? "none"))"
}

func show(_ realm: Realm) {
    for person in realm.objects(Person.self) {
        print("  \(person.firstName) \(person.lastName): \(person.dogs.map(\.name).joined(separator: ", "))")
    }
    for dog in realm.objects(Dog.self) {
        let owners = dog.owners.map(\.firstName)
        print("  dog \(describe(dog)), owners: \(owners.isEmpty ? "none" : owners.joined(separator: ", "))")
    }
    print("  toys: \(realm.objects(DogToy.self).map(\.name).joined(separator: ", "))")
}

do {
    let realm = try Realm(configuration: config)

    print("1. Create: Dachary with Maui and Lita, the toys Wubba and Ball")
    try realm.write {
        let wubba = DogToy(value: ["_id": wubbaId, "name": "Wubba"])
        realm.add(DogToy(value: ["_id": ballId, "name": "Ball"]))
        let person = Person(value: ["_id": dacharyId, "firstName": "Dachary", "lastName": "Pereira"])
        person.dogs.append(Dog(value: ["name": "Maui", "breed": "Poodle", "weight": 8, "favoriteToy": wubba]))
        person.dogs.append(Dog(value: ["name": "Lita", "breed": "Beagle", "weight": 12]))
        realm.add(person)
    }
    show(realm)

    print("2. Create with update: .modified Ben, whose favorite toy is the stored Ball")
    try realm.write {
        let ball = realm.object(ofType: DogToy.self, forPrimaryKey: ballId)!
        realm.create(
            Dog.self, value: ["name": "Ben", "breed": "Collie", "weight": 20, "favoriteToy": ball], update: .modified)
    }
    show(realm)

    print("3. Upsert: Person \(dacharyId) again with lastName Smith (add(_:update: .modified))")
    try realm.write {
        let existing = realm.object(ofType: Person.self, forPrimaryKey: dacharyId)!
        let again = Person(value: ["_id": dacharyId, "firstName": "Dachary", "lastName": "Smith"])
        again.dogs.append(objectsIn: existing.dogs)
        realm.add(again, update: .modified)
    }
    print(
        "  people: \(realm.objects(Person.self).count), lastName: \(realm.object(ofType: Person.self, forPrimaryKey: dacharyId)!.lastName)"
    )

    print("4. Queries")
    print("  by primary key \(wubbaId): \(realm.object(ofType: DogToy.self, forPrimaryKey: wubbaId)?.name ?? "none")")
    let heavy = realm.objects(Dog.self).where { $0.weight > 10 }.sorted(byKeyPath: "name").map(\.name)
    print("  dogs over 10 kg: \(heavy.joined(separator: ", "))")
    let poodles = realm.objects(Dog.self).filter("breed == %@", "Poodle").map(\.name)
    print("  poodles: \(poodles.joined(separator: ", "))")

    print("5. Update: Lita weighs 13 kg, Maui's toy becomes Ball")
    try realm.write {
        let lita = realm.objects(Dog.self).first { $0.name == "Lita" }!
        lita.weight = 13
        let maui = realm.objects(Dog.self).first { $0.name == "Maui" }!
        maui.favoriteToy = realm.object(ofType: DogToy.self, forPrimaryKey: ballId)
    }
    show(realm)

    print("6. Delete: the toy Ball (links to it become nil), then the dog Lita (leaves Dachary's list)")
    try realm.write {
        realm.delete(realm.object(ofType: DogToy.self, forPrimaryKey: ballId)!)
    }
    try realm.write {
        realm.delete(realm.objects(Dog.self).first { $0.name == "Lita" }!)
    }
    show(realm)

    print("7. A failed write stores nothing: a duplicate DogToy primary key")
    do {
        try realm.write {
            realm.add(DogToy(value: ["name": "Frisbee"]))
            realm.add(DogToy(value: ["_id": wubbaId, "name": "Second Wubba"]))
        }
    } catch let error as Realm.Error {
        print("  error (\(error.realmCode)): \(error.message)")
    }
    print("  toys: \(realm.objects(DogToy.self).map(\.name).joined(separator: ", "))")
}

print("8. Reopen the file and read it back")
let reopened = try Realm(configuration: config)
show(reopened)

print("9. Background write: writeAsync appends two dogs; onComplete runs after the commit is on disk")
do {
    let realm = try Realm(configuration: config)
    let thisPerson = realm.objects(Person.self).where { $0.firstName == "Dachary" }.first
    var finished = false
    realm.writeAsync {
        thisPerson?.dogs.append(objectsIn: [
            Dog(value: ["name": "Ben", "breed": "Collie", "weight": 20]),
            Dog(value: ["name": "Lita", "breed": "Beagle", "weight": 12]),
        ])
    } onComplete: { error in
        print(
            "  onComplete: error \(error.map { "\($0)" } ?? "nil"), Dachary's dogs: \(thisPerson!.dogs.map(\.name).joined(separator: ", "))"
        )
        finished = true
    }
    print(
        "  writeAsync returned; isPerformingAsynchronousWriteOperations = \(realm.isPerformingAsynchronousWriteOperations)"
    )
    // The block and its completion run on this (main) thread's run loop.
    while !finished { _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05)) }
    print(
        "  after the completion: isPerformingAsynchronousWriteOperations = \(realm.isPerformingAsynchronousWriteOperations)"
    )
}

print("10. An actor-isolated realm: asyncWrite creates a Todo; await actor.count")
/// A realm confined to the actor, written with asyncWrite.
actor RealmActor {
    var realm: Realm!
    init(configuration: Realm.Configuration) async throws {
        realm = try await Realm(configuration: configuration, actor: self)
    }
    var count: Int { realm.objects(Todo.self).count }
    func createTodo(name: String, owner: String, status: String) async throws {
        try await realm.asyncWrite {
            realm.create(
                Todo.self, value: ["_id": ObjectId.generate(), "name": name, "owner": owner, "status": status])
        }
    }
}
let actorDone = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let actor = try await RealmActor(configuration: config)
        try await actor.createTodo(name: "Take the ring to Mount Doom", owner: "Frodo", status: "In Progress")
        let taskCount = await actor.count
        print("  The actor currently has \(taskCount) \(taskCount == 1 ? "task" : "tasks")")
    } catch {
        print("  actor write failed: \(error)")
    }
    actorDone.signal()
}
actorDone.wait()
