import Foundation
import Strata

/// The objects of the format fixture files (Tests/Fixtures/Formats): written by the Strata
/// release that made each file, and checked object by object by FormatUpgradeTests. The values
/// are a pure function of the index, so the writer and the checker agree without sharing state.
enum FormatFixtureContent {
    static let dogs = 120
    static let toys = 12
    static let people = 40
    static let items = 60

    static func dogName(_ i: Int) -> String { "dog-\(i)-" + String(repeating: "w", count: i % 23) }
    static func dogAge(_ i: Int) -> Int { (i * 7) % 19 }
    static func dogBreed(_ i: Int) -> String? { i % 4 == 0 ? nil : "breed-\(i % 5)" }
    static func dogToy(_ i: Int) -> Int? { i % 3 == 0 ? nil : i % toys }
    static func toyName(_ t: Int) -> String { "toy-\(t)" }
    static func personName(_ p: Int) -> String { "person-\(p)" }
    /// The dogs person `p` lists, in order (a dog may appear in several lists, or twice in one).
    static func personDogs(_ p: Int) -> [Int] { (0..<(p % 6)).map { (p * 11 + $0 * 17) % dogs } }
    static func personAddress(_ p: Int) -> (street: String, city: String)? {
        p % 3 == 2 ? nil : ("\(p) Main Street", "city-\(p % 4)")
    }
    static func itemId(_ i: Int) -> ObjectId { try! ObjectId(string: String(format: "65f0a1b2c3d4e5f6%08x", i)) }
    static func itemStatus(_ i: Int) -> String { ["open", "done", "blocked"][i % 3] }
    static func itemTitle(_ i: Int) -> String { String(repeating: "t", count: (i * 37) % 400) }
    static func itemPriority(_ i: Int) -> Int { i * 1_000_003 - 30_000_000 }
    static func itemScore(_ i: Int) -> Double { Double(i) / 7 }
    static func itemDue(_ i: Int) -> Date? {
        i % 2 == 0 ? Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 3600) : nil
    }
    static func itemTags(_ i: Int) -> Set<String> { Set((0..<(i % 4)).map { "tag-\($0)" }) }
    static func itemLabels(_ i: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<(i % 3)).map { ("k\($0)", "v\($0)-\(i)") })
    }
    static func itemExtra(_ i: Int) -> AnyRealmValue {
        switch i % 5 {
        case 0: return .none
        case 1: return .int(i)
        case 2: return .string("extra-\(i)")
        case 3: return .double(Double(i) / 2)
        default: return .bool(i % 2 == 0)
        }
    }

    /// Writes every object into `realm`.
    static func write(_ realm: Realm) throws {
        try realm.write {
            var toyObjects: [DogToy] = []
            for t in 0..<toys { toyObjects.append(realm.create(DogToy.self, value: ["name": toyName(t)])) }
            var dogObjects: [Dog] = []
            for i in 0..<dogs {
                let d = realm.create(Dog.self, value: ["name": dogName(i), "age": dogAge(i)])
                d.breed = dogBreed(i)
                if let t = dogToy(i) { d.favoriteToy = toyObjects[t] }
                dogObjects.append(d)
            }
            for p in 0..<people {
                let person = realm.create(Person.self, value: ["id": p, "name": personName(p)])
                for d in personDogs(p) { person.dogs.append(dogObjects[d]) }
                if let a = personAddress(p) {
                    let address = Address()
                    address.street = a.street
                    address.city = a.city
                    person.address = address
                }
            }
            for i in 0..<items {
                let item = Item()
                item._id = itemId(i)
                item.status = itemStatus(i)
                item.title = itemTitle(i)
                item.priority = itemPriority(i)
                item.score = itemScore(i)
                item.due = itemDue(i)
                for t in itemTags(i).sorted() { item.tags.insert(t) }
                for (k, v) in itemLabels(i).sorted(by: { $0.key < $1.key }) { item.labels[k] = v }
                item.extra = itemExtra(i)
                realm.add(item)
            }
        }
    }
}
