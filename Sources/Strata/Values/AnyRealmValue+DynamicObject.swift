extension AnyRealmValue {
    /// The object this value holds, as a `DynamicObject` (its stored class read by property
    /// name), or nil when it holds no managed object.
    ///
    /// ```swift
    /// let owner = dog.anything.dynamicObject?["name"] as? String
    /// ```
    public var dynamicObject: DynamicObject? {
        guard case .object(let object) = self else { return nil }
        if let dynamic = object as? DynamicObject { return dynamic }
        guard let state = object._strataManaged, state.realm.checkThread() else { return nil }
        let dynamic = state.realm.dynamicState(state)
        return state.realm.object(dynamic.binding, key: dynamic.key) as? DynamicObject
    }
}
