import Foundation
import Strata

// DoggoBoard: a terminal board of dogs that stays current while other processes write.
//
//   swift run DoggoBoard [PATH]                 the interactive board (default ./doggoboard.realm)
//   swift run DoggoBoard add NAME [PATH]        add a dog from another process
//   swift run DoggoBoard rename OLD NEW [PATH]  rename a dog
//   swift run DoggoBoard delete NAME [PATH]     delete a dog
//   swift run DoggoBoard list [PATH]            print the dogs, one per line

func configuration(_ path: String?) -> Realm.Configuration {
    Realm.Configuration(fileURL: URL(fileURLWithPath: path ?? "doggoboard.realm"))
}

func oneShot(_ arguments: [String]) throws -> Bool {
    guard let command = arguments.first else { return false }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "add" where !rest.isEmpty:
        let realm = try Realm(configuration: configuration(rest.count > 1 ? rest[1] : nil))
        try realm.write { realm.add(Dog(value: ["name": rest[0]])) }
    case "rename" where rest.count >= 2:
        let realm = try Realm(configuration: configuration(rest.count > 2 ? rest[2] : nil))
        try realm.write { realm.objects(Dog.self).where { $0.name == rest[0] }.forEach { $0.name = rest[1] } }
    case "delete" where !rest.isEmpty:
        let realm = try Realm(configuration: configuration(rest.count > 1 ? rest[1] : nil))
        try realm.write { realm.delete(realm.objects(Dog.self).where { $0.name == rest[0] }) }
    case "list":
        let realm = try Realm(configuration: configuration(rest.first))
        for dog in realm.objects(Dog.self).sorted(byKeyPath: "name") {
            print(dog.favoriteToy.isEmpty ? dog.name : "\(dog.name) \(dog.favoriteToy)")
        }
    default:
        return false
    }
    return true
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if try oneShot(arguments) { exit(0) }
} catch {
    FileHandle.standardError.write(Data("DoggoBoard: \(error)\n".utf8))
    exit(1)
}

let board = Board(configuration: configuration(arguments.first))
board.drawAndWatch()
Thread {
    while let line = readLine() {
        let command = line.trimmingCharacters(in: .whitespaces)
        DispatchQueue.main.async {
            if !board.run(command) { exit(0) }
        }
    }
    DispatchQueue.main.async { exit(0) }
}.start()
dispatchMain()
