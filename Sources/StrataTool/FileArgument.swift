import ArgumentParser

/// The file argument every command takes, and the key of an encrypted file.
struct FileArgument: ParsableArguments {
    @Argument(help: "The Strata file.", completion: .file())
    var file: String

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "For an encrypted file: a file holding its 64-byte key (the bytes, or 128 hexadecimal digits). Without it the key comes from the STRATA_ENCRYPTION_KEY environment variable (128 hexadecimal digits), if set.",
            valueName: "keyfile"),
        completion: .file())
    var keyFile: String?

    /// The key to open the file with: from `--key-file`, else from `STRATA_ENCRYPTION_KEY`, else
    /// nil (a plain file).
    /// - Throws: `ToolError` for an unreadable or malformed key.
    func key() throws -> [UInt8]? {
        if let keyFile { return try EncryptionKeyInput.read(file: keyFile) }
        return try EncryptionKeyInput.fromEnvironment()
    }

    /// Opens the file with its key (see `key()`), read-only unless `writable`.
    func open(writable: Bool = false) throws -> StoreFile {
        try StoreFile.open(file, writable: writable, encryptionKey: try key())
    }
}
