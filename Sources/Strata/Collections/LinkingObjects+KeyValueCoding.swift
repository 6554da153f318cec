import Foundation

/// Key-value coding over the linking objects''s objects, as RealmSwift's collections have it:
/// `value(forKey:)` answers an array of each object's value, `setValue(_:forKey:)` sets the
/// property on every object (the bulk-update idiom, inside a write transaction when managed).
extension LinkingObjects {
    /// The value of the property named `key` of each object, in order (`NSNull()` for nil).
    public func value(forKey key: String) -> Any? {
        ObjectBase._strataValues(of: self, keyPath: key)
    }

    /// The value of `keyPath` (names joined by dots, through to-one links) of each object, in
    /// order (`NSNull()` for nil).
    public func value(forKeyPath keyPath: String) -> Any? {
        ObjectBase._strataValues(of: self, keyPath: keyPath)
    }

    /// Sets the property named `key` of every object to `value`.
    public func setValue(_ value: Any?, forKey key: String) {
        ObjectBase._strataSetValue(value, forKey: key, of: self)
    }
}
