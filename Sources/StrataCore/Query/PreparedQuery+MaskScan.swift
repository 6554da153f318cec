import StrataStorage
import StrataQuery

// A query built from AND, OR and NOT over simple comparisons (`age > 50 || score < 1.5`, each a
// `SimpleComparison` on a plain `Int` or `Double` column) is evaluated a cluster at a time: each
// comparison fills a byte per object from the column array with the same width-specialised loops
// as a single comparison, the bytes are combined with AND, OR and NOT, and the sink takes the
// objects whose byte is 1, branch-free. The row-by-row path ran such a query at 16M rows/s (`strata-bench w1`,
// count then sum); see Docs/Performance.md. A cluster written before one of the columns existed
// goes through the compiled test, so results are exactly the general path's.

extension QueryCompiler {
    /// `predicate` as a `SimplePredicate`, when every comparison in it is simple and it has no
    /// constants (TRUEPREDICATE, FALSEPREDICATE); nil otherwise. Compiles each comparison again
    /// (on a compiler of its own, so the caller's counts stay as they are).
    func simplePredicate(_ predicate: QueryPredicate) throws(StoreQueryError) -> SimplePredicate? {
        switch predicate {
        case .truePredicate, .falsePredicate:
            return nil
        case .comparison:
            let fast = fastComparisons, general = generalComparisons
            simple = nil
            _ = try compile(predicate)
            guard fastComparisons == fast + 1, generalComparisons == general, let s = simple,
                isSimpleColumn(table, s.column)
            else { return nil }
            return .comparison(s)
        case .and(let children), .or(let children):
            var out: [SimplePredicate] = []
            for child in children {
                guard let s = try simplePredicate(child) else { return nil }
                out.append(s)
            }
            guard !out.isEmpty else { return nil }
            if case .and = predicate { return .and(out) }
            return .or(out)
        case .not(let inner):
            return try simplePredicate(inner).map { .not($0) }
        }
    }
}

extension PreparedQuery {
    /// Runs the scan of a compound `SimplePredicate` into `sink` (see `simpleScan`).
    func maskScan<S: SimpleScanSink>(
        _ predicate: SimplePredicate, _ test: QueryRowTest, into sink: UnsafeMutablePointer<S>
    ) throws {
        var masks = MatchMasks(levels: predicate.depth)
        defer { masks.release() }
        var reader = RowReader(table: table)
        let columns = predicate.columns + (sink.pointee.readsColumn.map { [$0] } ?? [])
        try forEachScannedCluster(columns: columns) { view in
            sink.pointee.begin(view)
            let m = view.count
            masks.reserve(m)
            guard fill(predicate, view, m, masks, 0) else { return false }
            let mask = masks.level(0)
            sink.pointee.takeMatches(m, view, where: MaskMatcher(mask: mask))
            return true
        } fallback: { v in
            try takeByTest(v, test, &reader, sink)
        }
    }

    /// Writes 1 or 0 per object of the cluster into mask `level` for `predicate`; false when the
    /// cluster predates one of its columns (the caller then tests each object).
    private func fill(
        _ predicate: SimplePredicate, _ view: ClusterView, _ m: Int, _ masks: MatchMasks, _ level: Int
    ) -> Bool {
        let out = masks.level(level)
        switch predicate {
        case .comparison(let s):
            var bytes = MaskFill(out: out, m: m)
            return withMatches(s, view, &bytes)
        case .not(let inner):
            guard fill(inner, view, m, masks, level) else { return false }
            var i = 0
            while i < m { out[i] ^= 1; i &+= 1 }
            return true
        case .and(let children), .or(let children):
            let isAnd = if case .and = predicate { true } else { false }
            guard fill(children[0], view, m, masks, level) else { return false }
            let other = masks.level(level + 1)
            for child in children.dropFirst() {
                guard fill(child, view, m, masks, level + 1) else { return false }
                // `while` loops: `for i in 0..<m` kept the compiler from vectorising them.
                var i = 0
                if isAnd {
                    while i < m { out[i] &= other[i]; i &+= 1 }
                } else {
                    while i < m { out[i] |= other[i]; i &+= 1 }
                }
            }
            return true
        }
    }
}
