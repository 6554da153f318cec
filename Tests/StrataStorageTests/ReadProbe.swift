import Foundation
import XCTest
@_spi(StrataEngine) @testable import StrataStorage

/// Runs every read API of the storage engine over a (possibly damaged) database and compares
/// what each returns with a model of the true data: a read either returns the true data or
/// throws `StorageError.corruptPage`. Anything else (a wrong value, a missing or extra entry,
/// entries out of order, another error) is recorded as wrong.
final class ReadProbe {
    /// The true entries of each tree, in key order.
    let model: [String: [([UInt8], [UInt8])]]
    /// Keys to look up with `get` and `floor` per tree (all of them when nil).
    var lookupKeys: [String: [[UInt8]]] = [:]

    private(set) var wrong: [String] = []
    private(set) var detected: [String] = []
    private(set) var correct = 0

    init(model: [String: [([UInt8], [UInt8])]]) {
        self.model = model
    }

    func record(_ api: String, _ body: () throws -> String?) {
        do {
            if let problem = try body() { wrong.append("\(api): \(problem)") } else { correct += 1 }
        } catch let e as StorageError {
            if case .corruptPage = e { detected.append("\(api): \(e)") } else { wrong.append("\(api): threw \(e)") }
        } catch {
            wrong.append("\(api): threw \(error)")
        }
    }

    func recordWrong(_ what: String) { wrong.append(what) }

    /// The model's entry with the greatest key <= `key`.
    static func floor(_ entries: [([UInt8], [UInt8])], _ key: [UInt8]) -> ([UInt8], [UInt8])? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].0.lexicographicallyPrecedes(key) || entries[mid].0 == key { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : entries[lo - 1]
    }

    /// Index of the first model entry with key >= `key`.
    static func lowerBound(_ entries: [([UInt8], [UInt8])], _ key: [UInt8]) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].0.lexicographicallyPrecedes(key) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Checks a sequence of entries a scan delivered before it ended (`complete`) or threw:
    /// they must be the model's entries from `start`, in order, and all of them if it ended.
    /// `limit` is the number of entries the scan asks for (nil: all).
    static func checkScan(
        _ got: [([UInt8], [UInt8])], _ entries: [([UInt8], [UInt8])], from start: Int,
        limit: Int? = nil, complete: Bool
    ) -> String? {
        for (i, e) in got.enumerated() {
            let j = start + i
            guard j < entries.count else { return "entry \(i) past the end of the true data" }
            if e.0 != entries[j].0 { return "entry \(i) has key \(e.0), the true data has \(entries[j].0)" }
            if e.1 != entries[j].1 { return "entry \(i) (key \(e.0)) has a wrong value" }
        }
        let want = min(limit ?? Int.max, entries.count - start)
        if complete && got.count != want { return "ended after \(got.count) of \(want) entries" }
        return nil
    }

    /// Runs a scan that reports its entries to `emit`, recording what it delivered even when it
    /// throws (a scan may deliver true entries before it finds the damage).
    func recordScan(
        _ api: String, _ entries: [([UInt8], [UInt8])], from start: Int, limit: Int? = nil,
        _ body: (inout [([UInt8], [UInt8])]) throws -> Void
    ) {
        var got: [([UInt8], [UInt8])] = []
        do {
            try body(&got)
            if let p = Self.checkScan(got, entries, from: start, limit: limit, complete: true) {
                wrong.append("\(api): \(p)")
            } else {
                correct += 1
            }
        } catch let e as StorageError {
            if let p = Self.checkScan(got, entries, from: start, limit: limit, complete: false) {
                wrong.append("\(api): before throwing, \(p)")
            } else if case .corruptPage = e {
                detected.append("\(api): \(e)")
            } else {
                wrong.append("\(api): threw \(e)")
            }
        } catch {
            wrong.append("\(api): threw \(error)")
        }
    }

    /// Every read API of a read transaction.
    func run(_ db: Database) {
        let r: ReadTransaction
        do { r = try db.beginRead() } catch { wrong.append("beginRead: threw \(error)"); return }
        defer { r.end() }
        record("treeNames") {
            let names = try r.treeNames()
            return names == model.keys.sorted() ? nil : "names \(names)"
        }
        for name in model.keys.sorted() {
            let entries = model[name]!
            var tree: Tree?
            record("tree(named: \(name))") {
                tree = try r.tree(named: name)
                guard let t = tree else { return "missing" }
                return t.count == UInt64(entries.count) ? nil : "count \(t.count), true \(entries.count)"
            }
            guard let t = tree else { continue }
            let keys = lookupKeys[name] ?? entries.map(\.0)
            let truth = Dictionary(uniqueKeysWithValues: entries.map { ($0.0, $0.1) })
            for k in keys {
                record("get \(name) \(k)") {
                    let v = try r.get(k, in: t)
                    return v == truth[k] ? nil : (v == nil ? "nil for a key that exists" : "wrong value")
                }
                // A key just above k (k followed by a zero byte) has k's entry as its floor.
                for probe in [k, k + [0]] {
                    record("floor \(name) \(probe)") {
                        let f = try probe.withUnsafeBytes { try r.floor($0, in: t) }.map {
                            (Array($0.key), Array($0.value))
                        }
                        let want = Self.floor(entries, probe)
                        return f?.0 == want?.0 && f?.1 == want?.1
                            ? nil : "floor \(String(describing: f?.0)), true \(String(describing: want?.0))"
                    }
                }
            }
            recordScan("forEach \(name)", entries, from: 0) { got in
                try r.forEach(in: t) { k, v in
                    got.append((Array(k), Array(v))); return true
                }
            }
            recordScan("forEachLeaf \(name)", entries, from: 0) { got in
                try r.forEachLeaf(in: t) { leaf in
                    for i in 0..<leaf.count {
                        let (k, v) = try leaf.inlineEntry(i) ?? leaf.entry(i)
                        got.append((Array(k), Array(v)))
                    }
                    return true
                }
            }
            recordScan("cursor \(name)", entries, from: 0) { got in
                var c = r.cursor(over: t)
                while let (k, v) = try c.next() { got.append((Array(k), Array(v))) }
            }
            // Scans from a few places, each for a few entries.
            for s in stride(from: 0, to: keys.count, by: max(1, keys.count / 16)) {
                let start = keys[s]
                let at = Self.lowerBound(entries, start)
                let limit = 20
                recordScan("forEach \(name) from \(start)", entries, from: at, limit: limit) { got in
                    try r.forEach(in: t, from: start) { k, v in
                        got.append((Array(k), Array(v))); return got.count < limit
                    }
                }
                recordScan("cursor \(name) seek \(start)", entries, from: at, limit: limit) { got in
                    var c = r.cursor(over: t)
                    try c.seek(to: start)
                    while got.count < limit, let (k, v) = try c.next() { got.append((Array(k), Array(v))) }
                }
            }
        }
    }
}
