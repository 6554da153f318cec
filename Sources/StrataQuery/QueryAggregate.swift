/// A collection operator at the end of a key path (`dogs.@count`, `dogs.@avg.age`).
///
/// `@min`, `@max`, `@sum` and `@avg` carry the property of each element they aggregate
/// (`dogs.@avg.age` is `.avg("age")`), or `nil` for a list of primitives (`scores.@max`).
///
/// ## Concurrency
/// A value type with no shared state: use it from any thread, actor or task.
public enum QueryAggregate: Sendable, Equatable, Hashable {
    /// `@count`: the number of elements of a list (or characters of a string, bytes of data).
    case count
    /// `@size`: the same as `@count`; kept apart so the query prints back as written.
    case size
    /// `@min`: the smallest value.
    case min(String?)
    /// `@max`: the largest value.
    case max(String?)
    /// `@sum`: the sum of the values (0 for an empty list).
    case sum(String?)
    /// `@avg`: the mean of the values (`nil` for an empty list).
    case avg(String?)
    /// `@keys`: the keys of a map, compared as strings (`labels.@keys == 'color'`: any key).
    case keys
    /// `@values`: the values of a map (`labels.@values == 'blue'`: any value).
    case values
    /// `['key']`: the value a map holds for one key, null when it holds none
    /// (`labels['color'] == 'blue'`).
    case element(String)
    /// `@type`: the type of an `AnyRealmValue`'s value, compared with a type name
    /// (`value.@type == 'int'`, `value.@type == 'double|float'`).
    case type

    /// The operator as written, with its `@`: `"@count"`.
    public var name: String {
        switch self {
        case .count: return "@count"
        case .size: return "@size"
        case .min: return "@min"
        case .max: return "@max"
        case .sum: return "@sum"
        case .avg: return "@avg"
        case .keys: return "@keys"
        case .values: return "@values"
        case .element(let key): return "[\(QueryLiteral.string(key))]"
        case .type: return "@type"
        }
    }

    /// The element property aggregated by `@min`, `@max`, `@sum`, `@avg`; `nil` otherwise.
    public var property: String? {
        switch self {
        case .count, .size, .keys, .values, .element, .type: return nil
        case .min(let p), .max(let p), .sum(let p), .avg(let p): return p
        }
    }
}
