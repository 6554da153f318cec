import Foundation
internal import StrataQuery

/// The typed accessors of `AnyRealmValue` in `where { }`: `$0.value.intValue > 1` holds when the
/// value is an `Int` greater than 1, as the accessor reads in Swift (`value.intValue` is nil for a
/// string, so `$0.value.intValue == nil` holds for strings and nulls). They run as
/// `value.@type == 'int' AND value > 1`.
extension Query where T == AnyRealmValue {
    func typedAccessor<V>(_ typeName: String) -> Query<V> {
        var result = Query<V>(path: path, node: nil, context: context, throughCollection: throughCollection)
        result.collectionPrefix = collectionPrefix
        result.anyValueType = typeName
        return result
    }

    /// The value as an `Int`, nil unless it is one.
    public var intValue: Query<Int?> { typedAccessor("int") }
    /// The value as a `Bool`, nil unless it is one.
    public var boolValue: Query<Bool?> { typedAccessor("bool") }
    /// The value as a `Float`, nil unless it is one.
    public var floatValue: Query<Float?> { typedAccessor("float") }
    /// The value as a `Double`, nil unless it is one.
    public var doubleValue: Query<Double?> { typedAccessor("double") }
    /// The value as a `String`, nil unless it is one.
    public var stringValue: Query<String?> { typedAccessor("string") }
    /// The value as `Data`, nil unless it is one.
    public var dataValue: Query<Data?> { typedAccessor("binary") }
    /// The value as a `Date`, nil unless it is one.
    public var dateValue: Query<Date?> { typedAccessor("date") }
    /// The value as an `ObjectId`, nil unless it is one.
    public var objectIdValue: Query<ObjectId?> { typedAccessor("objectid") }
    /// The value as a `Decimal128`, nil unless it is one.
    public var decimal128Value: Query<Decimal128?> { typedAccessor("decimal128") }
    /// The value as a `UUID`, nil unless it is one.
    public var uuidValue: Query<UUID?> { typedAccessor("uuid") }
}

extension Query {
    /// `comparison` of a typed accessor, with the type test that makes it read as in Swift.
    func typed(_ comparison: QueryPredicate, _ op: QueryOperator, _ value: Any?, _ typeName: String) -> QueryPredicate {
        func type(_ op: QueryOperator) -> QueryPredicate {
            let index = context.add(typeName)
            return .comparison(QueryComparison(.keyPath(path, aggregate: .type), op, .argument(index: index)))
        }
        let isNil: Bool = {
            guard let value else { return true }
            let mirror = Mirror(reflecting: value)
            return mirror.displayStyle == .optional && mirror.children.isEmpty
        }()
        switch op {
        case .equal where isNil: return type(.notEqual)
        case .notEqual where isNil: return type(.equal)
        case .notEqual: return .or([type(.notEqual), comparison])
        default: return .and([type(.equal), comparison])
        }
    }
}
