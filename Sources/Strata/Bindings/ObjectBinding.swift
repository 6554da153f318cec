import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// Makes the bindings of `$`-syntax to objects' properties. Not API.
enum ObjectBinding {
    /// A binding to `keyPath` of `object` whose setter writes implicitly: it thaws the object
    /// (frozen objects are what the property wrappers hand out), skips a value equal to the
    /// stored one, and writes in a quick write (``QuickWrite``). Once the object is deleted the
    /// binding reads the last value it read and ignores writes.
    static func make<T: ObjectBase, V>(_ object: T, _ keyPath: ReferenceWritableKeyPath<T, V>) -> Binding<V> {
        let live: T
        if object.realm?.isFrozen == true {
            guard let thawed = object.strataThawed() as? T else {
                QuickWrite.report(
                    Realm.Error(
                        .invalidatedObject,
                        "Could not bind '\(keyPath)': the object was deleted, so it has no live version to write to."))
                let value = object[keyPath: keyPath]
                return Binding(get: { value }, set: { _ in })
            }
            live = thawed
        } else {
            live = object
        }
        let box = Box(live, last: live[keyPath: keyPath])
        return Binding(
            get: {
                guard !box.object.isInvalidated else { return box.last }
                box.last = box.object[keyPath: keyPath]
                return box.last
            },
            set: { newValue in
                let object = box.object
                guard !object.isInvalidated else {
                    return QuickWrite.report(
                        Realm.Error(.invalidatedObject, "Could not write '\(keyPath)': the object was deleted."))
                }
                if isUnchanged(object[keyPath: keyPath], newValue) { return }
                QuickWrite.perform(in: object.realm) { object[keyPath: keyPath] = newValue }
                box.last = newValue
            })
    }

    /// Whether `new` equals `old` (values of an `Equatable` type only: objects are never
    /// skipped, since RealmSwift's object equality holds for distinct unmanaged copies).
    static func isUnchanged<V>(_ old: V, _ new: V) -> Bool {
        if old is ObjectBase { return false }
        guard let old = old as? any Equatable else { return false }
        return equal(old, new)
    }

    private static func equal<E: Equatable>(_ a: E, _ b: Any) -> Bool {
        (b as? E) == a
    }

    /// What a binding's closures share: the live object and the last value read.
    private final class Box<T, V>: @unchecked Sendable {
        let object: T
        var last: V
        init(_ object: T, last: V) {
            self.object = object
            self.last = last
        }
    }
}
