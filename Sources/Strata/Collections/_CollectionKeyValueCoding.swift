import Foundation

/// Key-value coding and `objects(at:)` of any Realm collection, written once: `value(forKey:)`
/// answers an array of each object's value (`NSNull()` for nil), or of the values themselves
/// for `"self"` on a collection of values; `setValue(_:forKey:)` sets the property on every
/// object. Not API.
enum _CollectionKeyValueCoding {
    /// The type's name without its generic arguments (`List`), for messages.
    static func kind<C>(of _: C.Type) -> String {
        String(String(describing: C.self).prefix { $0 != "<" })
    }

    static func values<S: Sequence>(of elements: S, keyPath: String) -> Any?
    where S.Element: RealmCollectionValue {
        if S.Element.self is ObjectBase.Type {
            return elements.map { ObjectBase._strataValue(of: $0 as! ObjectBase, keyPath: keyPath) ?? NSNull() }
        }
        guard keyPath == "self" else {
            return Realm.violation(
                "Invalid key path '\(keyPath)' for a collection of \(S.Element.self) values: name the values 'self'.",
                fallback: nil)
        }
        return elements.map { $0 as Any }
    }

    static func setValue<S: Sequence>(_ value: Any?, forKey key: String, of elements: S)
    where S.Element: RealmCollectionValue {
        guard S.Element.self is ObjectBase.Type else {
            return Realm.violation(
                "setValue(_:forKey:) sets a property of each object; a collection of \(S.Element.self) values has none.",
                fallback: ())
        }
        ObjectBase._strataSetValue(value, forKey: key, of: elements.map { $0 as! ObjectBase })
    }

    static func objects<Element>(_ elements: [Element], at indexes: IndexSet, kind: String) -> [Element] {
        if let last = indexes.last, last >= elements.count {
            return Realm.violation(
                "Indexes for \(kind) are out of bounds: \(last) is not less than \(elements.count).", fallback: [])
        }
        return indexes.map { elements[$0] }
    }
}
