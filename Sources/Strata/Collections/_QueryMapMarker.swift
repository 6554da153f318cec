/// `Map` types, for map queries in `where { }`. Not API.
public protocol _QueryMapMarker {
    /// The map's value type.
    associatedtype _StrataMapValue
}

extension Map: _QueryMapMarker where Key == String {
    public typealias _StrataMapValue = Value
}
