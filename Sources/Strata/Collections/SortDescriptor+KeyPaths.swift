extension SortDescriptor: ExpressibleByStringLiteral {
    /// An ascending sort by the property the literal names: `sorted(by: ["name", "age"])`.
    public init(stringLiteral keyPath: String) {
        self.init(keyPath: keyPath)
    }

    /// A sort by the persisted property `keyPath` names (`SortDescriptor(keyPath: \Dog.age)`). A
    /// key path that is not one persisted property is reported through `Realm.violationHandler`.
    public init<Root: ObjectBase, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool = true) {
        self.init(keyPath: Root.strataPropertyNames([keyPath as PartialKeyPath<Root>])[0], ascending: ascending)
    }

    /// The same sort in the other direction.
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending)
    }
}
