import Foundation
import Observation
import Strata

/// The interactive board: lists the dogs of a realm through `@ObservedResults`, redraws when
/// the list changes (a commit of this process or of another one), and edits through the
/// `$`-bindings (quick writes), one command per input line:
///
///     a NAME          add a dog                     ($dogs.append)
///     r N NAME        rename dog N                  (dogs[N].bind(\.name))
///     t N TOY         set dog N's favorite toy      (dogs[N].bind(\.favoriteToy))
///     d N             delete dog N                  ($dogs.remove(atOffsets:))
///     q               quit
///
/// ## Concurrency
/// Runs on the main thread: its realm, its writes and its drawing; commands arrive from a
/// reader thread and redraw requests from the notifier, both through the main queue.
@MainActor
final class Board {
    @ObservedResults var dogs: Results<Dog>
    private var status = "Type a command: a NAME, r N NAME, t N TOY, d N, q"

    init(configuration: Realm.Configuration) {
        _dogs = ObservedResults(Dog.self, configuration: configuration, sortDescriptor: SortDescriptor(keyPath: "name"))
        Realm.quickWriteErrorHandler = { error in
            DispatchQueue.main.async { [weak self] in self?.status = "Error: \(error.localizedDescription)" }
        }
    }

    /// Draws the board and redraws it each time what it drew changes.
    ///
    /// A change that lands while the board draws, before Observation installs the tracking, is
    /// not reported to it: drawing again outside the tracking finds it, and redraws.
    func drawAndWatch() {
        let drawn = withObservationTracking {
            draw()
        } onChange: {
            DispatchQueue.main.async { [weak self] in self?.drawAndWatch() }
        }
        if render() != drawn {
            DispatchQueue.main.async { [weak self] in self?.drawAndWatch() }
        }
    }

    /// Draws the board; returns what it drew.
    @discardableResult
    private func draw() -> String {
        let screen = render()
        FileHandle.standardOutput.write(Data(screen.utf8))
        return screen
    }

    private func render() -> String {
        var screen = "\u{1B}[2J\u{1B}[H"
        screen += "DoggoBoard: \(dogs.count) dog\(dogs.count == 1 ? "" : "s")\n"
        for (i, dog) in dogs.enumerated() {
            let toy = dog.favoriteToy.isEmpty ? "" : " (loves \(dog.favoriteToy))"
            screen += "  \(i + 1). \(dog.name)\(toy)\n"
        }
        screen += "\n\(status)\n> "
        return screen
    }

    /// Runs one command line; returns false for `q`.
    func run(_ line: String) -> Bool {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard let command = words.first else { return true }
        let index = words.count > 1 ? Int(words[1]).map { $0 - 1 } : nil
        let valid = index.map { $0 >= 0 && $0 < dogs.count } ?? false
        switch command {
        case "q":
            return false
        case "a" where words.count > 1:
            let name = words.dropFirst().joined(separator: " ")
            $dogs.append(Dog(value: ["name": name]))
            status = "Added \(name)."
        case "r" where words.count > 2 && valid:
            let rename = dogs[index!].bind(\.name)
            rename.wrappedValue = words[2]
            status = "Renamed dog \(index! + 1) to \(words[2])."
        case "t" where words.count > 2 && valid:
            dogs[index!].bind(\.favoriteToy).wrappedValue = words[2]
            status = "Dog \(index! + 1) loves \(words[2])."
        case "d" where valid:
            status = "Deleted \(dogs[index!].name)."
            $dogs.remove(atOffsets: IndexSet(integer: index!))
        default:
            status = "Unknown command '\(line)'. Commands: a NAME, r N NAME, t N TOY, d N, q"
        }
        draw()
        return true
    }
}
