#if !canImport(SwiftUI)
    /// A value you read and write through a getter and a setter: SwiftUI's `Binding`, for
    /// platforms without SwiftUI (on Apple platforms Strata's `$`-bindings are SwiftUI's own
    /// `Binding`, with the same surface).
    ///
    /// The `$`-bindings of Strata's property wrappers write implicitly: setting the
    /// `wrappedValue` of `$dog.favoriteToy` thaws the dog and writes the new value in a write
    /// transaction (see ``ObservedRealmObject``). Terminal or other Observation-based interfaces
    /// pass bindings to their controls as SwiftUI views do.
    ///
    /// ```swift
    /// var name = "Rex"
    /// let binding = Binding(get: { name }, set: { name = $0 })
    /// binding.wrappedValue = "Max"        // name == "Max"
    /// ```
    ///
    /// ## Concurrency
    /// Not `Sendable`: use a binding where the values its closures capture may be used (a
    /// binding of a realm object on the object's thread).
    @propertyWrapper
    @dynamicMemberLookup
    public struct Binding<Value> {
        private let getValue: () -> Value
        private let setValue: (Value) -> Void

        /// A binding that reads with `get` and writes with `set`.
        public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
            getValue = get
            setValue = set
        }

        /// A binding that reads `projectedValue`'s value and writes through it (`@Binding var x`
        /// initialized with `$y`).
        public init(projectedValue: Binding<Value>) {
            self = projectedValue
        }

        /// A binding to a value that never changes; writes are ignored.
        public static func constant(_ value: Value) -> Binding<Value> {
            Binding(get: { value }, set: { _ in })
        }

        /// The value: reading calls the getter, writing calls the setter.
        public var wrappedValue: Value {
            get { getValue() }
            nonmutating set { setValue(newValue) }
        }

        /// The binding itself (`$binding`).
        public var projectedValue: Binding<Value> { self }

        /// A binding to the member `keyPath` of the value: writing it writes the whole value back
        /// through this binding.
        public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
            Binding<Subject>(
                get: { self.wrappedValue[keyPath: keyPath] },
                set: { newValue in
                    var value = self.wrappedValue
                    value[keyPath: keyPath] = newValue
                    self.wrappedValue = value
                })
        }
    }
#endif
