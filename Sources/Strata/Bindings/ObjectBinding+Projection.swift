import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

extension ObjectBinding {
    /// A binding to the projected property `keyPath` of `projection` that writes implicitly, as
    /// a binding to an object's property does: the projected object is thawed, and a value that
    /// did not change is not written.
    static func make<P: ProjectionObservable, V>(
        _ projection: P, _ keyPath: ReferenceWritableKeyPath<P, V>
    ) -> Binding<V> {
        let root = projection.rootObject
        let liveRoot: P.Root
        if root.realm?.isFrozen == true {
            guard let thawed = root.strataThawed() as? P.Root else {
                QuickWrite.report(
                    Realm.Error(
                        .invalidatedObject,
                        "Could not bind '\(keyPath)': the object was deleted, so it has no live version to write to."))
                let value = projection[keyPath: keyPath]
                return Binding(get: { value }, set: { _ in })
            }
            liveRoot = thawed
        } else {
            liveRoot = root
        }
        let live = P(projecting: liveRoot)
        let last = ProjectionBindingValue(live[keyPath: keyPath])
        return Binding(
            get: {
                guard !liveRoot.isInvalidated else { return last.value }
                last.value = live[keyPath: keyPath]
                return last.value
            },
            set: { newValue in
                guard !liveRoot.isInvalidated else {
                    return QuickWrite.report(
                        Realm.Error(.invalidatedObject, "Could not write '\(keyPath)': the object was deleted."))
                }
                if isUnchanged(live[keyPath: keyPath], newValue) { return }
                QuickWrite.perform(in: liveRoot.realm) { live[keyPath: keyPath] = newValue }
                last.value = newValue
            })
    }
}
