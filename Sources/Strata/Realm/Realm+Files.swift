import Foundation
internal import StrataCore
internal import StrataStorage

// The realm's files as a whole: copies, compaction on launch, seed files, existence, deletion,
// and migrating or reading the schema version without opening a realm for use.

extension Realm {
    /// Writes a compacted copy of this realm to a new file at `fileURL`.
    ///
    /// The copy holds the version this realm shows; inside a write transaction, the data as
    /// changed so far (committed or not). Other realms, threads and processes go on reading and
    /// writing meanwhile. The copy is rebuilt with full pages and no free space, so it is as
    /// small as the data allows, and appears under its name only once it is complete and durable.
    ///
    /// ```swift
    /// let backup = FileManager.default.temporaryDirectory.appendingPathComponent("backup.realm")
    /// try realm.writeCopy(toFile: backup)
    /// ```
    ///
    /// - Parameters:
    ///   - fileURL: the new file; it must not exist.
    ///   - encryptionKey: the 64-byte key to encrypt the copy with, or nil for a plain copy, whether
    ///     or not this realm's file is encrypted: so a copy adds, changes or removes encryption.
    /// - Throws: `Realm.Error` `.fileExists` when `fileURL` exists, `.fail` for a key that is not
    ///   64 bytes, `.invalidDatabase` for a damaged page of this realm, or the failed write's error.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        try requireThread()
        try Realm.checkEncryptionKey(encryptionKey, path: fileURL.path)
        let target = fileURL.path
        if FileManager.default.fileExists(atPath: target) {
            throw Realm.Error(
                .fileExists,
                "Unable to write a copy of '\(file.path)' to '\(target)': the file already exists. Choose a new path, or delete the file first (Realm.deleteFiles(for:)).",
                path: target)
        }
        let started = Date()
        do {
            let report = try current().writeCopy(toPath: target, encryptionKey: encryptionKey.map { [UInt8]($0) })
            Realm.logCopy(from: file.path, to: target, report, since: started)
        } catch {
            throw Realm.Error(storage: error, path: target)
        }
    }

    /// Writes a compacted copy of this realm to the file `configuration` names (its `fileURL`),
    /// encrypted with its `encryptionKey` if it has one, as ``writeCopy(toFile:encryptionKey:)`` does.
    /// - Throws: as ``writeCopy(toFile:encryptionKey:)``; `.fail` for an in-memory configuration.
    public func writeCopy(configuration: Realm.Configuration) throws {
        guard configuration.inMemoryIdentifier == nil, let url = configuration.fileURL else {
            throw Realm.Error(
                .fail,
                "Unable to write a copy of '\(file.path)' to an in-memory realm: give the configuration a fileURL instead of an inMemoryIdentifier."
            )
        }
        try writeCopy(toFile: url, encryptionKey: configuration.encryptionKey)
    }

    /// Whether the file `configuration` names exists.
    public static func fileExists(for configuration: Realm.Configuration) -> Bool {
        FileManager.default.fileExists(atPath: configuration.path)
    }

    /// Deletes the file `configuration` names and its lock file.
    ///
    /// The file must not be open in any realm, of this process or another (a realm stays open
    /// while any instance, object or collection of it is alive).
    /// - Returns: whether the data file existed.
    /// - Throws: `Realm.Error` `.alreadyOpen` while the file is open anywhere; the failed
    ///   deletion's error otherwise.
    @discardableResult
    public static func deleteFiles(for configuration: Realm.Configuration) throws -> Bool {
        let path = configuration.path
        if RealmFile.isOpen(path) {
            throw Realm.Error(
                .alreadyOpen,
                "Unable to delete '\(path)': a realm of this process has it open. Release every Realm instance, object and collection of it first.",
                path: path)
        }
        do {
            return try Database.deleteFiles(path: path)
        } catch StorageError.inUse {
            throw Realm.Error(
                .alreadyOpen,
                "Unable to delete '\(path)': another process (or another handle of this one) has it open. Close it there first.",
                path: path)
        } catch {
            throw Realm.Error(storage: error, path: path)
        }
    }

    /// Brings the file `configuration` names to the configuration's schema, running its
    /// migration block if the file's schema version is lower, without keeping a realm open.
    /// Opening a realm does the same, so calling this is optional: it lets an app migrate at a
    /// time of its choosing (behind a progress screen, say).
    /// - Throws: what `Realm(configuration:)` throws.
    public static func performMigration(for configuration: Realm.Configuration = .defaultConfiguration) throws {
        // An open of its own, not a cached realm of this thread (which would skip the check).
        _ = try Realm(configuration: configuration, confinement: .thread(ThreadID.current))
    }

    // MARK: Opening

    /// Checks an encryption key's length: 64 bytes, as RealmSwift's.
    static func checkEncryptionKey(_ key: Data?, path: String) throws {
        guard let key, key.count != 64 else { return }
        throw Realm.Error(
            .fail,
            "Encryption key must be exactly 64 bytes long, but the key given for '\(path)' has \(key.count) bytes.",
            path: path)
    }

    /// Refuses a realm of a file this process has open with another key (or none), as
    /// RealmSwift does: the key is checked once, when the file is opened.
    static func requireSameKey(_ open: Data?, _ asked: Data?, path: String) throws {
        guard open != asked else { return }
        throw Realm.Error(
            .fail,
            "Realm at path '\(path)' already opened with \(open == nil ? "no encryption key" : "a different encryption key"): open it with the key its other realms use.",
            path: path)
    }

    /// What an open does before it opens the file: checks the options that concern files, and
    /// copies the seed file when no file exists yet.
    static func prepareFilesBeforeOpen(_ configuration: Realm.Configuration) throws {
        let path = configuration.path
        try checkEncryptionKey(configuration.encryptionKey, path: path)
        if configuration.readOnly && configuration.shouldCompactOnLaunch != nil {
            throw Realm.Error(
                .readOnly,
                "Cannot set `shouldCompactOnLaunch` when `readOnly` is set: a read-only realm cannot compact '\(path)'.",
                path: path)
        }
        guard let seed = configuration.seedFilePath, configuration.inMemoryIdentifier == nil,
            !FileManager.default.fileExists(atPath: path)
        else { return }
        guard FileManager.default.fileExists(atPath: seed.path) else {
            throw Realm.Error(
                .fileNotFound,
                "The seed file '\(seed.path)' for '\(path)' does not exist. Check Realm.Configuration.seedFilePath (a bundled resource's URL).",
                path: seed.path)
        }
        // Copied under a temporary name, then linked to the realm's name: two opens racing to
        // seed the same file never see half a copy, and the second finds the first one's file.
        let temporary = path + ".seeding-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        do {
            try FileManager.default.copyItem(atPath: seed.path, toPath: temporary)
            try FileManager.default.linkItem(atPath: temporary, toPath: path)
        } catch CocoaError.fileWriteFileExists {
            return
        } catch {
            if FileManager.default.fileExists(atPath: path) { return }
            throw Realm.Error(
                .fileAccess, "Unable to copy the seed file '\(seed.path)' to '\(path)': \(error.localizedDescription)",
                path: path)
        }
        Logger.log(.info, Category.sdk, "Copied the seed file '\(seed.path)' to '\(path)'")
    }

    /// Compacts the file when the configuration's `shouldCompactOnLaunch` asks for it. Called by
    /// the first open of the file in this process; skipped while another process has it open.
    func compactOnLaunchIfAsked() throws {
        guard let shouldCompact = configuration.shouldCompactOnLaunch, !configuration.readOnly,
            configuration.inMemoryIdentifier == nil
        else { return }
        let db = file.db
        guard !db.isOpenElsewhere else {
            Logger.log(.debug, Category.sdk, "Not compacting '\(file.path)' at launch: another process has it open")
            return
        }
        do {
            let usage = try db.spaceUsage()
            guard shouldCompact(Int(usage.fileBytes), Int(usage.usedBytes)) else { return }
            // Trees are rewritten with full pages first: after mass deletes, pages are half empty,
            // and moving pages alone leaves them so.
            let report = try db.compact(rebuildingTrees: true)
            Logger.log(
                .info, Category.sdk,
                "Compacted '\(file.path)' at launch: \(report.bytesBefore) -> \(report.bytesAfter) bytes")
        } catch {
            throw Realm.Error(storage: error, path: file.path)
        }
    }

    static func logCopy(from source: String, to target: String, _ report: CopyReport, since start: Date) {
        Logger.log(
            .info, Category.sdk,
            "Wrote a copy of '\(source)' to '\(target)': \(report.entries) entries in \(report.trees) trees, \(report.bytes) bytes, \(Int(Date().timeIntervalSince(start) * 1000)) ms"
        )
    }
}

/// The schema version stored in the realm file at `fileURL`, read without opening a realm (and
/// without the models).
/// - Parameters:
///   - fileURL: the file.
///   - encryptionKey: the file's 64-byte key if it is encrypted, else nil.
/// - Throws: `Realm.Error` `.fileNotFound` when there is no file, `.invalidDatabase` when it is
///   not a Strata file, is damaged, or is encrypted and the key is missing or wrong (or a key is
///   given for a plain file), `.fail` for a key that is not 64 bytes or when the file has no
///   schema version yet (no realm with models ever opened it).
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    let path = fileURL.path
    try Realm.checkEncryptionKey(encryptionKey, path: path)
    guard FileManager.default.fileExists(atPath: path) else {
        throw Realm.Error(
            .fileNotFound, "Unable to read the schema version of '\(path)': the file does not exist.", path: path)
    }
    let version: UInt64?
    do {
        version = try RealmFile.withReadTransaction(path: path, encryptionKey: encryptionKey.map { [UInt8]($0) }) {
            try $0.schemaVersion()
        }
    } catch let e as Realm.Error {
        throw e
    } catch {
        throw Realm.Error(storage: error, path: path)
    }
    guard let version else {
        throw Realm.Error(.fail, "'\(path)' has no schema version: no realm with models has opened it yet.", path: path)
    }
    return version
}
