import Foundation

/// `List` is a `RangeReplaceableCollection`, as in RealmSwift: slices can be replaced by slices of
/// another length, and the editing methods of the standard library and of SwiftUI's lists
/// (`remove(atOffsets:)`, `move(fromOffsets:toOffset:)`) work. Each call is one change of the
/// stored list (one write when managed, inside a write transaction); an index or range outside
/// the list is reported through `Realm.violationHandler` and changes nothing.
///
/// These methods are not `mutating` (a list is a class): `person.dogs.removeFirst()` works on a
/// `let`.
extension List: RangeReplaceableCollection {
    /// Whether `range` lies within a list of `count` elements; reports the violation when not.
    private static func checkRange(_ range: Range<Int>, count: Int) -> Bool {
        if range.lowerBound >= 0 && range.upperBound <= count { return true }
        return Realm.violation(
            "Range \(range.lowerBound)..<\(range.upperBound) is out of bounds (the List has \(count) elements).",
            fallback: false)
    }

    /// Whether `number` elements can be removed from a list of `count`; reports the violation
    /// when not.
    private static func checkRemoval(_ number: Int, count: Int) -> Bool {
        if number >= 0 && number <= count { return true }
        return Realm.violation(
            "Cannot remove \(number) elements from a List of \(count) elements.", fallback: false)
    }

    /// Replaces the elements in `subrange` with `newElements`, which may be more or fewer.
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        let added = Array(newElements)
        splice({ Self.checkRange(subrange, count: $0) }) { _ in (subrange, added) }
    }

    /// The elements in `bounds`; assigning replaces them with the assigned elements, which may be
    /// more or fewer (`list[0..<2] = list[3..<4]`).
    public subscript(bounds: Range<Int>) -> Slice<List<Element>> {
        get { Slice(base: self, bounds: bounds) }
        set { replaceSubrange(bounds, with: Array(newValue)) }
    }

    /// Inserts `newElements` at `index` (0...count), in order.
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        let added = Array(newElements)
        splice({ _checkIndex(index, count: $0, allowingEnd: true) }) { _ in (index..<index, added) }
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange(_ bounds: Range<Int>) {
        splice({ Self.checkRange(bounds, count: $0) }) { _ in (bounds, []) }
    }

    /// Removes the first element; the list must not be empty.
    public func removeFirst() {
        splice({ $0 > 0 || Realm.violation("Cannot remove the first element of an empty List.", fallback: false) }) {
            _ in
            (0..<1, [])
        }
    }

    /// Removes the first `number` elements (0...count).
    public func removeFirst(_ number: Int) {
        splice({ Self.checkRemoval(number, count: $0) }) { _ in (0..<number, []) }
    }

    /// Removes the last `number` elements (0...count).
    public func removeLast(_ number: Int) {
        splice({ Self.checkRemoval(number, count: $0) }) { ($0.count - number..<$0.count, []) }
    }

    /// Removes the elements at `offsets` (SwiftUI's `onDelete`).
    public func remove(atOffsets offsets: IndexSet) {
        mutate({ count in offsets.allSatisfy { _checkIndex($0, count: count) } }) { elements in
            for i in offsets.reversed() { elements.remove(at: i) }
        }
    }

    /// Moves the elements at `offsets` to before `destination` (0...count), keeping their order
    /// (SwiftUI's `onMove`).
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        mutate({ count in
            offsets.allSatisfy { _checkIndex($0, count: count) }
                && _checkIndex(destination, count: count, allowingEnd: true)
        }) { elements in
            let moved = offsets.map { elements[$0] }
            let before = offsets.count(in: 0..<destination)
            for i in offsets.reversed() { elements.remove(at: i) }
            elements.insert(contentsOf: moved, at: destination - before)
        }
    }
}
