import Foundation

/// Key-value coding over the results' objects, as RealmSwift's collections have it:
/// `value(forKey:)` answers an array of each object's value (of the values themselves for
/// `"self"` on results of values), `setValue(_:forKey:)` sets the property on every object (the
/// bulk-update idiom, inside a write transaction when managed).
extension Results {
    /// The value of the property named `key` of each object, in order (`NSNull()` for nil).
    public func value(forKey key: String) -> Any? {
        _CollectionKeyValueCoding.values(of: self, keyPath: key)
    }

    /// The value of `keyPath` (names joined by dots, through to-one links) of each object, in
    /// order (`NSNull()` for nil).
    public func value(forKeyPath keyPath: String) -> Any? {
        _CollectionKeyValueCoding.values(of: self, keyPath: keyPath)
    }

    /// Sets the property named `key` of every object to `value`.
    public func setValue(_ value: Any?, forKey key: String) {
        _CollectionKeyValueCoding.setValue(value, forKey: key, of: self)
    }
}
