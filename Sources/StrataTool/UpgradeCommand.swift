import ArgumentParser
import StrataCore
import StrataStorage

/// `strata upgrade FILE`: brings a file to this build's format.
struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring a file written by an older Strata to this build's format.",
        discussion: """
            Rewrites what an older build stored differently (the format number of the meta \
            records; tables that keep one row per object become columnar clusters), in durable \
            commits. Opening the file writable through the Realm API does the same; this does it \
            ahead of time. A file already in this format is left as it is. Older builds cannot \
            open the file afterwards.
            """
    )

    @OptionGroup var file: FileArgument

    func run() throws {
        let before = try file.open().db.formatVersion
        let store = try file.open(writable: true)
        let txn = StoreTransaction(write: try store.db.beginWrite())
        var converted: [String] = []
        do {
            let tables = try txn.storedTables()
            txn.tables = tables
            for name in tables.keys.sorted() where try txn.hasLegacyRows(tables[name]!) {
                try txn.upgradeLegacyRows(tables[name]!)
                converted.append(name)
            }
            if converted.isEmpty { txn.write?.abort() } else { try txn.commit() }
        } catch {
            txn.write?.abort()
            throw error
        }
        let after = store.db.formatVersion
        if before == after && converted.isEmpty {
            print("\(file.file): already format version \(after); nothing to do.")
        } else {
            print(
                "\(file.file): format version \(before) -> \(after)"
                    + (converted.isEmpty ? "" : "; converted to clusters: \(converted.joined(separator: ", "))"))
        }
    }
}
