import Foundation
import Strata

// strata-bench collections: queries of a 100k-element List next to the same queries of Results,
// as JSON lines (one per step; `seconds` is the median of --rounds runs, default 5).
//   list_where_count        team.members.where { $0.age > 50 }.count (the store scans the
//                           list's objects)
//   results_where_count     realm.objects(W1Person.self).where { $0.age > 50 }.count (counted
//                           from the rows' bytes, no keys collected)
//   list_where_last         team.members.where { $0.age > 50 }.last (the matching keys collected)
//   results_where_last      the same over Results
//   list_where_sum          team.members.where { $0.age > 50 }.sum(ofProperty: "score")
//   results_where_sum       the same over Results
//   list_where_first        team.members.where { $0.id == k }.first (k near the end of the list)
//   list_swift_filter_count team.members.filter { $0.age > 50 }.count: Swift's filter over the
//                           list's objects, the way to do it without a store query
//   list_append_one_by_one  10,000 appends of one person each to a new team's list, in one write
//                           transaction (a list is stored in its owner's row: each append
//                           adds its element's bytes there and copies the cluster holding it)
//   set_insert_one_by_one   2,000 inserts of one person each into a new team's set, in one write
//                           transaction (each insert stores the whole set again)
//   list_insert_front_one_by_one
//                           2,000 inserts of one person each at index 0 of a new team's list,
//                           in one write transaction (each insert edits the list's front only)
//   map_set_one_by_one      10,000 `map[key] = value` sets of new keys in a new team's map, in
//                           one write transaction (each set edits one entry of the stored map)
// The file holds N persons (--n, default 100,000), all of them in one team's list in a shuffled
// order.

/// A team of W1 persons: the list the collection steps query.
final class BenchTeam: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var members: List<W1Person>
    @Persisted var memberSet: MutableSet<W1Person>
    @Persisted var scoreByName: Map<String, Int>
}

func runCollectionQueries(_ args: Args) throws {
    let n = CommandLine.arguments.contains("--n") ? args.n : 100_000
    let rounds = CommandLine.arguments.contains("--rounds") ? args.rounds : 5
    let dir = notifyDir(args.dir)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/collections.realm"
    var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
    configuration.objectTypes = [W1Person.self, BenchTeam.self]
    let realm = try Realm(configuration: configuration)
    try fillPersons(realm, n)
    var order = Array(0..<Int64(n))
    var rng = SystemRandomNumberGenerator()
    order.shuffle(using: &rng)
    try realm.write {
        let team = BenchTeam()
        team.id = 1
        realm.add(team)
        // One append of all of them: a list is stored in its owner's row, so each append writes
        // the whole list again.
        team.members.append(objectsIn: order.map { realm.object(ofType: W1Person.self, forPrimaryKey: $0)! })
    }
    guard let team = realm.object(ofType: BenchTeam.self, forPrimaryKey: 1) else { return }
    let people = realm.objects(W1Person.self)
    let expected = (0..<n).filter { $0 % 100 > 50 }.count

    func step(_ name: String, _ body: () -> Int) {
        guard args.wants(name) else { return }
        var times: [Double] = []
        var result = 0
        for _ in 0..<rounds {
            let t0 = now()
            result = body()
            times.append(now() - t0)
        }
        emit(
            name, n: n, seconds: percentile(times, 0.5), fileBytes: fileBytes(path),
            extra: ["rounds": rounds, "result": result, "list_count": team.members.count])
    }
    step("list_where_count") { team.members.where { $0.age > 50 }.count }
    step("results_where_count") { people.where { $0.age > 50 }.count }
    step("list_where_last") { Int(team.members.where { $0.age > 50 }.last?.id ?? -1) }
    step("results_where_last") { Int(people.where { $0.age > 50 }.last?.id ?? -1) }
    step("list_where_sum") { Int(team.members.where { $0.age > 50 }.sum(ofProperty: "score") as Double) }
    step("results_where_sum") { Int(people.where { $0.age > 50 }.sum(ofProperty: "score") as Double) }
    let last = order[order.count - 1]
    step("list_where_first") { Int(team.members.where { $0.id == last }.first?.id ?? -1) }
    step("list_swift_filter_count") { team.members.filter { $0.age > 50 }.count }
    if args.wants("list_append_one_by_one") {
        let count = min(10_000, n)
        let t0 = now()
        try realm.write {
            let other = BenchTeam()
            other.id = 2
            realm.add(other)
            for id in 0..<Int64(count) {
                other.members.append(realm.object(ofType: W1Person.self, forPrimaryKey: id)!)
            }
        }
        emit("list_append_one_by_one", n: count, seconds: now() - t0, fileBytes: fileBytes(path))
    }
    if args.wants("set_insert_one_by_one") {
        let count = min(2_000, n)
        let t0 = now()
        try realm.write {
            let other = BenchTeam()
            other.id = 3
            realm.add(other)
            for id in 0..<Int64(count) {
                other.memberSet.insert(realm.object(ofType: W1Person.self, forPrimaryKey: id)!)
            }
            precondition(other.memberSet.count == count, "the set lost an insert")
        }
        emit("set_insert_one_by_one", n: count, seconds: now() - t0, fileBytes: fileBytes(path))
    }
    if args.wants("list_insert_front_one_by_one") {
        let count = min(2_000, n)
        let t0 = now()
        try realm.write {
            let other = BenchTeam()
            other.id = 5
            realm.add(other)
            for id in 0..<Int64(count) {
                other.members.insert(realm.object(ofType: W1Person.self, forPrimaryKey: id)!, at: 0)
            }
            precondition(other.members.first?.id == Int64(count - 1), "the list lost an insert")
        }
        emit("list_insert_front_one_by_one", n: count, seconds: now() - t0, fileBytes: fileBytes(path))
    }
    if args.wants("map_set_one_by_one") {
        let count = 10_000
        let t0 = now()
        try realm.write {
            let other = BenchTeam()
            other.id = 4
            realm.add(other)
            for i in 0..<count { other.scoreByName["person-\(i)"] = i }
            precondition(other.scoreByName.count == count, "the map lost a set")
        }
        emit("map_set_one_by_one", n: count, seconds: now() - t0, fileBytes: fileBytes(path))
    }
    precondition(team.members.where { $0.age > 50 }.count == expected, "the list query found the wrong objects")
}
