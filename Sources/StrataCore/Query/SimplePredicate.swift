import StrataStorage
import StrataQuery

/// AND, OR and NOT over `SimpleComparison`s.
indirect enum SimplePredicate {
    case comparison(SimpleComparison)
    case and([SimplePredicate])
    case or([SimplePredicate])
    case not(SimplePredicate)

    /// The columns the comparisons read, each once.
    var columns: [Int] {
        var seen: [Int] = []
        func visit(_ p: SimplePredicate) {
            switch p {
            case .comparison(let c): if !seen.contains(c.column) { seen.append(c.column) }
            case .and(let children), .or(let children): children.forEach(visit)
            case .not(let inner): visit(inner)
            }
        }
        visit(self)
        return seen
    }

    /// How many masks deep the evaluation goes (one per nested AND or OR).
    var depth: Int {
        switch self {
        case .comparison: return 1
        case .and(let children), .or(let children): return 1 + (children.map(\.depth).max() ?? 0)
        case .not(let inner): return inner.depth
        }
    }
}
