/// `Map` properties in `where { }`, as RealmSwift has them: `$0.labels["color"] == "blue"` (the
/// value for one key; a missing key reads as nil), `$0.labels.keys == "color"` (any key),
/// `$0.labels.values == "blue"` and `$0.labels.contains("blue")` (any value).
extension Query where T: _QueryMapMarker {
    /// The value the map holds for `key` (nil when it holds none).
    public subscript(key: String) -> Query<T._StrataMapValue> {
        Query<T._StrataMapValue>(path: path + [Query<Int>.mapKeyMarker + key], node: nil, context: context)
    }

    /// The map's keys: a comparison holds when it holds for any key.
    public var keys: Query<String> {
        Query<String>(path: path + ["@keys"], node: nil, context: context, throughCollection: true)
    }

    /// The map's values: a comparison holds when it holds for any value.
    public var values: Query<T._StrataMapValue> {
        Query<T._StrataMapValue>(path: path + ["@values"], node: nil, context: context, throughCollection: true)
    }
}

extension Query where T: _QueryMapMarker, T._StrataMapValue: _PropertyValueEncodable {
    /// The map holds `value` for some key.
    public func contains(_ value: T._StrataMapValue) -> Query<Bool> {
        values == value
    }
}

extension Query {
    /// Marks a map subscript in a `where { }` key path until it becomes the parser's form.
    static var mapKeyMarker: String { "\u{1}" }
}
