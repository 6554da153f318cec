import Foundation

extension ObjectBase {
    /// The value of `keyPath` (property names joined by dots, through to-one links) of `object`,
    /// or nil when it or a link on the way holds nil.
    static func _strataValue(of object: ObjectBase, keyPath: String) -> Any? {
        var current: Any? = object
        for name in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            guard let value = current else { return nil }
            guard let link = value as? ObjectBase else {
                return Realm.violation(
                    "Invalid key path '\(keyPath)': '\(name)' follows a value that is not an object.", fallback: nil)
            }
            current = link.value(forKey: String(name))
        }
        return current
    }

    /// `keyPath`'s value for each of `objects`, in order, with `NSNull()` for nil (as RealmSwift's
    /// collections answer `value(forKeyPath:)`).
    static func _strataValues<S: Sequence>(of objects: S, keyPath: String) -> [Any] where S.Element: ObjectBase {
        objects.map { _strataValue(of: $0, keyPath: keyPath) ?? NSNull() }
    }

    /// Sets the property named `key` of each of `objects` to `value`; the objects are taken first,
    /// so a change that moves objects out of a query's results still reaches each of them.
    static func _strataSetValue<S: Sequence>(_ value: Any?, forKey key: String, of objects: S)
    where S.Element: ObjectBase {
        for object in Array(objects) { object.setValue(value, forKey: key) }
    }
}
