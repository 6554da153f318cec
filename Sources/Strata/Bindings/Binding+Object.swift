import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

extension Binding where Value: ObjectBase {
    /// A binding to a property of the bound object that writes implicitly: setting it thaws the
    /// object and writes the value in a write transaction, joining the realm's current one if
    /// there is one, skipping a value that did not change (`$dog.favoriteToy`).
    ///
    /// ```swift
    /// @ObservedRealmObject var dog: Dog
    /// $dog.favoriteToy.wrappedValue = "Wubba"   // a TextField("Favorite toy", text: $dog.favoriteToy)
    /// ```
    public subscript<V>(dynamicMember member: ReferenceWritableKeyPath<Value, V>) -> Binding<V> {
        ObjectBinding.make(wrappedValue, member)
    }

    /// Deletes the bound object from its realm in a quick write (`$dog.delete()`).
    public func delete() {
        QuickWrite.delete(wrappedValue)
    }
}
