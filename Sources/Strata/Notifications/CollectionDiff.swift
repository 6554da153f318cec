import Foundation

/// The difference between two versions of an ordered collection of object keys.
struct CollectionDiff: Equatable {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// The change from `old` to `new` (keys unique within each), with `isModified` telling which
    /// keys present in both changed. Keys that stay but change their relative order are
    /// reported as deleted and inserted: the kept keys outside a longest run in increasing old
    /// order (computed with patience sorting, O(n log n)).
    static func between<K: Hashable>(_ old: [K], _ new: [K], isModified: (K) -> Bool) -> CollectionDiff {
        var diff = CollectionDiff()
        if old == new {
            for (i, k) in old.enumerated() where isModified(k) { diff.modifications.append(i) }
            return diff
        }
        var newIndex: [K: Int] = [:]
        newIndex.reserveCapacity(new.count)
        for (j, k) in new.enumerated() { newIndex[k] = j }
        // Kept keys: (old index, new index), in old order.
        var kept: [(old: Int, new: Int)] = []
        kept.reserveCapacity(min(old.count, new.count))
        var stays = [Bool](repeating: false, count: new.count)
        for (i, k) in old.enumerated() {
            if let j = newIndex[k] { kept.append((i, j)) } else { diff.deletions.append(i) }
        }
        // Longest increasing subsequence of the new indices.
        var tails: [Int] = []  // index into `kept` ending each run length
        var previous = [Int](repeating: -1, count: kept.count)
        for (n, pair) in kept.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if kept[tails[mid]].new < pair.new { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[n] = tails[lo - 1] }
            if lo == tails.count { tails.append(n) } else { tails[lo] = n }
        }
        var inRun = [Bool](repeating: false, count: kept.count)
        var n = tails.last ?? -1
        while n >= 0 { inRun[n] = true; n = previous[n] }
        for (n, pair) in kept.enumerated() {
            if inRun[n] {
                stays[pair.new] = true
                if isModified(old[pair.old]) { diff.modifications.append(pair.old) }
            } else {
                diff.deletions.append(pair.old)
            }
        }
        diff.deletions.sort()
        for j in new.indices where !stays[j] { diff.insertions.append(j) }
        return diff
    }

    /// Applies the change to `old`, given the new contents for the inserted elements; nil when
    /// an index is out of range.
    static func apply<T>(_ diff: CollectionDiff, to old: [T], new: [T]) -> [T]? {
        var out = old
        for i in diff.deletions.reversed() {
            guard i >= 0, i < out.count else { return nil }
            out.remove(at: i)
        }
        for j in diff.insertions {
            guard j >= 0, j <= out.count, j < new.count else { return nil }
            out.insert(new[j], at: j)
        }
        return out
    }
}
