// DoggoDB: prints the schema StrataPlugin generated for the seeds' models, then writes and reads
// an unmanaged Dog through the generated accessors (the path the object layer will use).
import Strata

print(Schema.generated)
print()

let toy = DogToy()
toy.name = "Wubba"
let dog = Dog.strataAccessors.make()
do {
    try Dog.strataAccessors.setValue(.string("Maui"), forProperty: "name", of: dog)
    try Dog.strataAccessors.setValue(.object(toy), forProperty: "favoriteToy", of: dog)
} catch {
    print("error: \(error)")
}
let person = Person()
person.firstName = "Dachary"
person.dogs.append(dog)
print("dog.name via accessor: \(Dog.strataAccessors.value(ofProperty: "name", of: dog).map { "\($0)" } ?? "none")")
print("dog.favoriteToy?.name: \(dog.favoriteToy?.name ?? "none")")
print("\(person.firstName) has \(person.dogs.count) dog(s): \(person.dogs.map(\.name))")
print("key path \\Dog.weight is property #\(Dog.strataPropertyIndex(for: \Dog.weight).map(String.init) ?? "none")")
