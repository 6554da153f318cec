import ArgumentParser
import StrataStorage

/// `strata compact FILE`: shrinks the file.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Shrink a file: rewrite its trees with full pages, move pages into free space, cut off the free end.",
        discussion: """
            Runs as ordinary durable commits, so a crash leaves a consistent file and apps may keep \
            the file open meanwhile (pages their snapshots still read are not moved, so the file \
            shrinks less while they are open). The file may first grow by its largest tree's size.
            """
    )

    @OptionGroup var file: FileArgument

    func run() throws {
        let store = try file.open(writable: true)
        let report = try store.db.compact(rebuildingTrees: true)
        print("\(file.file): \(report.bytesBefore) -> \(report.bytesAfter) bytes")
    }
}
