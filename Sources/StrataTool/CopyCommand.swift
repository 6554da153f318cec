import ArgumentParser
import StrataStorage

/// `strata copy FILE OUT`: a compacted copy of the newest version, which may add, change or
/// remove encryption.
struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Write a compacted copy of a file's newest version.",
        discussion: """
            The copy is rebuilt with full pages and no free space, and appears under its name only \
            when complete and durable. Apps may keep using the source meanwhile. OUT must not exist.

            The copy of an encrypted file is encrypted with the same key unless --encrypt gives \
            another key or --decrypt asks for a plain copy. Examples:
              strata copy app.realm app-encrypted.realm --encrypt app.key
              strata copy app-encrypted.realm app.realm --decrypt app.key
              strata copy app-encrypted.realm rekeyed.realm --key-file app.key --encrypt new.key
            """
    )

    @OptionGroup var file: FileArgument

    @Argument(help: "The new file.", completion: .file())
    var output: String

    @Option(
        help: ArgumentHelp(
            "Encrypt the copy with the 64-byte key in this file (the bytes, or 128 hexadecimal digits).",
            valueName: "keyfile"),
        completion: .file())
    var encrypt: String?

    @Option(
        help: ArgumentHelp(
            "Write a plain copy of a file encrypted with the 64-byte key in this file (the bytes, or 128 hexadecimal digits).",
            valueName: "keyfile"),
        completion: .file())
    var decrypt: String?

    func validate() throws {
        if encrypt != nil && decrypt != nil { throw ValidationError("Give --encrypt or --decrypt, not both.") }
        if decrypt != nil && file.keyFile != nil {
            throw ValidationError("--decrypt names the source file's key; give it once, without --key-file.")
        }
    }

    func run() throws {
        let store: StoreFile
        if let decrypt {
            // A plain source is refused here: the key given does not fit it (`fileNotEncrypted`).
            store = try StoreFile.open(file.file, encryptionKey: try EncryptionKeyInput.read(file: decrypt))
        } else {
            store = try file.open()
        }
        // The copy's key: the one --encrypt names, none with --decrypt, else the source's own.
        let key: [UInt8]?
        if let encrypt {
            key = try EncryptionKeyInput.read(file: encrypt)
        } else if decrypt != nil {
            key = nil
        } else {
            key = store.db.isEncrypted ? try file.key() : nil
        }
        let progress = Progress("Copying")
        let report = try store.db.read { txn in
            try txn.writeCopy(
                toPath: output, progress: { done, total in progress.update(done, of: total, unit: "entries") },
                encryptionKey: key)
        }
        progress.finish()
        let how = key == nil ? (store.db.isEncrypted ? ", decrypted" : "") : ", encrypted"
        print(
            "\(file.file) -> \(output): \(report.entries) entries in \(report.trees) trees, \(report.bytes) bytes\(how)"
        )
    }
}
