import Foundation

extension Results: RealmCollection {
    /// The position of `object` in the results (the same stored object, any instance of it;
    /// for values an equal value), nil when absent.
    public func index(of object: Element) -> Int? {
        if let values { return valueElements(values).firstIndex(of: object) }
        guard let realm, let binding, case .object(let o) = object._strataPropertyValue,
            let state = o._strataManaged, state.realm.file === realm.file,
            state.binding.className == binding.className
        else { return nil }
        return keys().firstIndex(of: state.key)
    }

    /// Whether `lhs` and `rhs` are the same results: one `Results` value and its copies, as
    /// RealmSwift compares the collection behind them. Two queries with the same objects are
    /// not equal.
    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        lhs.cache === rhs.cache
    }
}
