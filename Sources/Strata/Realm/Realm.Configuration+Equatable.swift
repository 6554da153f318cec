import Foundation

extension Realm.Configuration: Equatable, CustomStringConvertible {
    /// Configurations are equal when they open the same file (or in-memory realm) the same way:
    /// every setting is equal, the model classes are the same classes, and the blocks
    /// (`migrationBlock`, `shouldCompactOnLaunch`) are both set or both nil (a block has no
    /// equality of its own).
    public static func == (lhs: Realm.Configuration, rhs: Realm.Configuration) -> Bool {
        lhs.fileURL?.standardizedFileURL == rhs.fileURL?.standardizedFileURL
            && lhs.inMemoryIdentifier == rhs.inMemoryIdentifier
            && lhs.encryptionKey == rhs.encryptionKey
            && lhs.readOnly == rhs.readOnly
            && lhs.schemaVersion == rhs.schemaVersion
            && (lhs.migrationBlock == nil) == (rhs.migrationBlock == nil)
            && lhs.deleteRealmIfMigrationNeeded == rhs.deleteRealmIfMigrationNeeded
            && lhs.objectTypes.map { $0.map(ObjectIdentifier.init) }
                == rhs.objectTypes.map { $0.map(ObjectIdentifier.init) }
            && lhs.maximumNumberOfActiveVersions == rhs.maximumNumberOfActiveVersions
            && lhs.openLastIntactVersion == rhs.openLastIntactVersion
            && (lhs.shouldCompactOnLaunch == nil) == (rhs.shouldCompactOnLaunch == nil)
            && lhs.seedFilePath?.standardizedFileURL == rhs.seedFilePath?.standardizedFileURL
    }

    /// The settings, one `name = value;` per line, in the shape of RealmSwift's description.
    public var description: String {
        var lines = ["Realm.Configuration {"]
        func add(_ name: String, _ value: String) { lines.append("\t\(name) = \(value);") }
        add("fileURL", fileURL?.path ?? "(null)")
        add("inMemoryIdentifier", inMemoryIdentifier ?? "(null)")
        // The key itself is never printed.
        add("encryptionKey", encryptionKey.map { "<\($0.count) bytes>" } ?? "(null)")
        add("readOnly", readOnly ? "1" : "0")
        add("schemaVersion", "\(schemaVersion)")
        add("migrationBlock", migrationBlock == nil ? "(null)" : "<block>")
        add("deleteRealmIfMigrationNeeded", deleteRealmIfMigrationNeeded ? "1" : "0")
        add("shouldCompactOnLaunch", shouldCompactOnLaunch == nil ? "(null)" : "<block>")
        add("maximumNumberOfActiveVersions", "\(maximumNumberOfActiveVersions)")
        add(
            "objectTypes",
            objectTypes.map { "[\($0.map { String(describing: $0) }.joined(separator: ", "))]" } ?? "(null)")
        add("seedFilePath", seedFilePath?.path ?? "(null)")
        add("openLastIntactVersion", openLastIntactVersion ? "1" : "0")
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}
