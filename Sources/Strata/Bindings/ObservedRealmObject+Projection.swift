import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

extension ObservedRealmObject.Wrapper where ObjectType: ProjectionObservable {
    /// A binding to the projected property `keyPath`; setting it writes the projected object's
    /// property in a quick write (`$dogView.name`).
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject>
    {
        ObjectBinding.make(wrappedValue, keyPath)
    }

    /// Deletes the projected object from its realm in a quick write.
    public func delete() {
        QuickWrite.delete(wrappedValue.rootObject)
    }
}

extension Binding where Value: ProjectionObservable {
    /// A binding to a projected property of the bound projection that writes implicitly, as
    /// `$dog.name` does for an object (`$dogView.name` of `@StateRealmObject var dogView`).
    public subscript<V>(dynamicMember member: ReferenceWritableKeyPath<Value, V>) -> Binding<V> {
        ObjectBinding.make(wrappedValue, member)
    }

    /// Deletes the projected object from its realm in a quick write.
    public func delete() {
        QuickWrite.delete(wrappedValue.rootObject)
    }
}
