import ArgumentParser
import Foundation
import StrataCore
import StrataStorage

/// `strata stats FILE`: size, free space, pages per type and index, pinned versions.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a file's size, free space, pages per type and index, and the versions readers pin."
    )

    @OptionGroup var file: FileArgument

    func run() throws {
        let store = try file.open()
        let db = store.db
        let size = (try FileManager.default.attributesOfItem(atPath: file.file)[.size] as? NSNumber)?.int64Value ?? 0
        let report = try db.verify()
        let progress = Progress("Counting pages")
        let trees = try db.read { txn in
            try txn.treeStatistics { done, total in progress.update(UInt64(done), of: UInt64(total), unit: "trees") }
        }
        progress.finish()
        let pageSize = db.pageSize
        var out: [String] = []
        out.append("file: \(file.file)")
        out.append("size: \(size) bytes, page size \(pageSize), format version \(db.formatVersion)")
        out.append(
            "pages: \(report.pageCount) in use by version \(report.version.rawValue): \(report.treePages) in trees, \(report.areaPages > 0 ? "\(report.areaPages) of areas, " : "")\(report.freePages) free (\(Int64(report.freePages) * Int64(pageSize)) bytes), \(report.bookkeepingPages) bookkeeping"
        )
        // Trees by type: c: objects, p: primary key, b: backlinks, i:T:col an index, o: rows of the first format.
        var byType: [String: [(String, TreeStatistics)]] = [:]
        var other: [TreeStatistics] = []
        for t in trees {
            let parts = t.name.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, ["c", "p", "b", "i", "o"].contains(parts[0]), !parts[1].isEmpty else {
                other.append(t); continue
            }
            let role: String
            switch parts[0] {
            case "c": role = "objects"
            case "p": role = "primary key"
            case "b": role = "backlinks"
            case "o": role = "rows (first format)"
            default: role = "index \(parts.count > 2 ? parts[2] : "?")"
            }
            byType[parts[1], default: []].append((role, t))
        }
        for name in byType.keys.sorted() {
            let parts = byType[name]!
            out.append("\(name): \(parts.reduce(0) { $0 + $1.1.pages }) pages")
            for (role, t) in parts.sorted(by: { $0.0 < $1.0 }) {
                out.append(
                    "  \(role): \(t.pages) pages (\(t.leafPages) leaf, \(t.branchPages) branch, \(t.overflowPages) overflow), \(t.entries) entries, depth \(t.depth)"
                )
            }
        }
        for t in other {
            out.append("\(t.name): \(t.pages) pages, \(t.entries) entries")
        }
        let readers = db.readers().filter { !$0.isThisHandle }
        if readers.isEmpty {
            out.append("readers: none other than this command")
        } else {
            for r in readers {
                out.append(
                    "reader: process \(r.processID), "
                        + (r.pinnedVersion.map { "pins version \($0)" } ?? "pins no version"))
            }
        }
        print(out.joined(separator: "\n"))
    }
}
