import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

extension ThreadConfined where Self: ObjectBase {
    /// A binding to `keyPath` of this object whose setter writes implicitly (see
    /// `Binding.subscript(dynamicMember:)`): for controls that take a binding.
    ///
    /// ```swift
    /// let name = dog.bind(\.name)
    /// name.wrappedValue = "Max"     // thaws the dog and writes in a write transaction
    /// ```
    public func bind<V>(_ keyPath: ReferenceWritableKeyPath<Self, V>) -> Binding<V> {
        ObjectBinding.make(self, keyPath)
    }
}
