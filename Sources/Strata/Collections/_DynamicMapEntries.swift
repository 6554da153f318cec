/// A `Map` given as the value of a map property: its entries, by key. Not API.
protocol _DynamicMapEntries {
    var _strataDynamicEntries: [String: Any] { get }
}
