extension EmbeddedObject {
    /// Creates an unmanaged embedded object from `value`: a dictionary of property names to
    /// values, an array of property values in declaration order (properties past its end keep
    /// their defaults), or another object of the class, as `Object(value:)` does.
    ///
    /// ```swift
    /// let address = Address(value: ["street": "Main St", "city": "Springfield"])
    /// ```
    ///
    /// A value that does not fit stops the process with a message naming the property (through
    /// `Realm.violationHandler`).
    public convenience init(value: Any) {
        self.init()
        _strataApply(value: value)
    }
}
