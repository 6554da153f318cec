import ArgumentParser
import StrataStorage

/// `strata copy FILE OUT`: a compacted copy of the newest version.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Write a compacted copy of a file's newest version.",
        discussion: """
            The copy is rebuilt with full pages and no free space, and appears under its name only \
            when complete and durable. Apps may keep using the source meanwhile. OUT must not exist.
            """
    )

    @OptionGroup var file: FileArgument

    @Argument(help: "The new file.", completion: .file())
    var output: String

    @Option(
        help: ArgumentHelp(
            "Encrypt the copy with the 64-byte key in this file (not supported yet).", valueName: "keyfile"))
    var encrypt: String?

    @Option(
        help: ArgumentHelp(
            "Decrypt a file encrypted with the 64-byte key in this file (not supported yet).", valueName: "keyfile"))
    var decrypt: String?

    func validate() throws {
        if encrypt != nil && decrypt != nil { throw ValidationError("Give --encrypt or --decrypt, not both.") }
    }

    func run() throws {
        if encrypt != nil || decrypt != nil {
            throw ToolError(
                "This build of Strata cannot encrypt or decrypt files yet; copy without --encrypt/--decrypt.")
        }
        let store = try StoreFile.open(file.file)
        let progress = Progress("Copying")
        let report = try store.db.read { txn in
            try txn.writeCopy(toPath: output) { done, total in progress.update(done, of: total, unit: "entries") }
        }
        progress.finish()
        print("\(file.file) -> \(output): \(report.entries) entries in \(report.trees) trees, \(report.bytes) bytes")
    }
}
