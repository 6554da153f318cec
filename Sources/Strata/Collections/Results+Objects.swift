import Foundation

extension Results {
    /// The objects at `indexes`, in index order. An index outside the results is reported through
    /// `Realm.violationHandler` and gives an empty array.
    public func objects(at indexes: IndexSet) -> [Element] {
        let n = count
        if let last = indexes.last, last >= n {
            return Realm.violation(
                "Indexes for Results are out of bounds: \(last) is not less than \(n).", fallback: [])
        }
        return indexes.map { self[$0] }
    }
}
