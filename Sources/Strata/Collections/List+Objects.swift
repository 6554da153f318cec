import Foundation

extension List {
    /// The elements at `indexes`, in index order. An index outside the list is reported through
    /// `Realm.violationHandler` and gives an empty array.
    public func objects(at indexes: IndexSet) -> [Element] {
        let current = Array(self)
        if let last = indexes.last, last >= current.count {
            return Realm.violation(
                "Indexes for List are out of bounds: \(last) is not less than \(current.count).", fallback: [])
        }
        return indexes.map { current[$0] }
    }
}
