// A map assigned to a map property of a dynamic object (`person["dogsByRole"] = other.dynamicMap("dogsByRole")`).

extension Map: _DynamicMapEntries {
    var _strataDynamicEntries: [String: Any] {
        var out: [String: Any] = [:]
        for (k, v) in self { out[k._strataMapKey] = v }
        return out
    }
}
