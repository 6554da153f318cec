import StrataQuery

/// Why a ``StoreQuery`` could not be bound to a table: the query names something the schema does
/// not have, or uses an operator, constant or argument that does not fit the property.
///
/// Every case names the key path (as written in the query) and the property's type, and its
/// `description` says what to write instead. Argument *values* are user data and never appear in
/// descriptions; only their kinds do ("argument 1 is a string"). Query text is program text and
/// may appear.
///
/// ```swift
/// do {
///     _ = try StoreQuery("age BEGINSWITH 'x'").evaluate(in: txn, table: people)
/// } catch let error as StoreQueryError {
///     print(error)   // Operator 'BEGINSWITH' cannot be used with 'age', which holds int values; ...
/// }
/// ```
///
/// | case | when |
/// |---|---|
/// | `syntax` | the filter text does not parse (wraps `QueryParseError`) |
/// | `wrongArgumentCount` | fewer or more arguments than the placeholders need |
/// | `unknownProperty` | a key path names a property the table does not have |
/// | `notALink` | a key path continues after a property that is not a link |
/// | `unknownTable` | a link's target table is not in `StoreTransaction.tables` |
/// | `invalidOperator` | the operator (or `[c]`/`[d]`) does not apply to the property's type |
/// | `typeMismatch` | a constant or argument has a type the property cannot be compared with |
/// | `nullNotAllowed` | `nil` compared with a property that is not optional |
/// | `invalidArgument` | an argument has the wrong shape: `IN %@` needs a list, `BETWEEN %@` two values, `%K` a string |
/// | `invalidQuantifier` | `ANY`/`ALL`/`NONE` on a key path without a collection, or two collections compared |
/// | `invalidAggregate` | `@count`, `@sum`, ... on a property they do not apply to |
/// | `invalidSortKeyPath` | a sort or distinct key path that is not a single value reached through to-one links |
/// | `unsupported` | a predicate the engine does not evaluate (such as nesting deeper than ``StoreQuery/maximumDepth``) |
///
/// ## Concurrency
/// A value type; `Sendable`.
package enum StoreQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The filter text does not parse; the wrapped error says where and what to write.
    case syntax(QueryParseError)
    /// The query's placeholders need `expected` arguments; `given` were passed.
    case wrongArgumentCount(expected: Int, given: Int)
    /// `keyPath` names `property`, which table `table` does not have.
    case unknownProperty(table: String, property: String, keyPath: String)
    /// `keyPath` continues after `property` of `table`, which is not a link.
    case notALink(table: String, property: String, keyPath: String)
    /// `keyPath` follows a link to table `table`, which the transaction does not know
    /// (it is missing from `StoreTransaction.tables`).
    case unknownTable(table: String, keyPath: String)
    /// `op` (an operator such as `BEGINSWITH`, or a modifier such as `[c]`) does not apply to
    /// `keyPath`, whose values have type `type`.
    case invalidOperator(keyPath: String, type: String, operator: String)
    /// `source` ("argument 0", "the constant 'x'", "'otherProperty'") has type `found` (`"null"`
    /// for nil with an ordering or string operator), which cannot be compared with `keyPath` of
    /// type `type`.
    case typeMismatch(keyPath: String, type: String, found: String, source: String)
    /// `nil` is compared with `keyPath`, whose type `type` is not optional.
    case nullNotAllowed(keyPath: String, type: String)
    /// Argument `index` has type `found` where `expected` is needed.
    case invalidArgument(index: Int, expected: String, found: String)
    /// `quantifier` (`ANY`, `ALL`, `NONE`, or `"list comparison"`) does not fit `keyPath`; `reason` says why.
    case invalidQuantifier(keyPath: String, quantifier: String, reason: String)
    /// `aggregate` (`@count`, `@sum`, ...) does not apply to `keyPath`; `reason` says why.
    case invalidAggregate(keyPath: String, aggregate: String, reason: String)
    /// A sort or distinct key path cannot be used; `reason` says why.
    case invalidSortKeyPath(keyPath: String, reason: String)
    /// A predicate the engine does not evaluate; the text says what to do instead.
    case unsupported(String)

    /// What went wrong and what to write instead.
    package var description: String {
        switch self {
        case .syntax(let error):
            return error.description
        case .wrongArgumentCount(let expected, let given):
            let noun = expected == 1 ? "argument" : "arguments"
            return
                "The query expects \(expected) \(noun), got \(given); pass one argument for each %@ or $n placeholder."
        case .unknownProperty(let table, let property, let keyPath):
            let path = keyPath == property ? "" : " in key path '\(keyPath)'"
            return
                "Property '\(property)' not found in object of type '\(table)'\(path); check the spelling, or add the property to the model."
        case .notALink(let table, let property, let keyPath):
            return
                "Property '\(table).\(property)' in key path '\(keyPath)' is not a link, so nothing can follow it; end the key path at '\(property)'."
        case .unknownTable(let table, let keyPath):
            return
                "Key path '\(keyPath)' links to type '\(table)', which this transaction does not know; add the '\(table)' table to StoreTransaction.tables (and the type to the configuration's objectTypes)."
        case .invalidOperator(let keyPath, let type, let op):
            return
                "Operator '\(op)' cannot be used with '\(keyPath)', which holds \(type) values; \(Self.advice(operator: op, type: type))"
        case .typeMismatch(let keyPath, let type, let found, let source):
            if found == "null" {
                return
                    "Cannot compare '\(keyPath)' (\(type)) with nil (\(source)) by an ordering or string operator; only == and != compare with nil."
            }
            return
                "Cannot compare '\(keyPath)' (\(type)) with \(source) of type \(found); pass a value of the property's type."
        case .nullNotAllowed(let keyPath, let type):
            return
                "'\(keyPath)' is a non-optional \(type) property and is never nil; remove the nil comparison, or declare the property optional."
        case .invalidArgument(let index, let expected, let found):
            return "Argument \(index) is \(Self.withArticle(found)), but the query needs \(expected) there."
        case .invalidQuantifier(let keyPath, let quantifier, let reason):
            return "\(quantifier) cannot be used with '\(keyPath)': \(reason)."
        case .invalidAggregate(let keyPath, let aggregate, let reason):
            return "\(aggregate) cannot be used with '\(keyPath)': \(reason)."
        case .invalidSortKeyPath(let keyPath, let reason):
            return "Cannot sort or de-duplicate by '\(keyPath)': \(reason)."
        case .unsupported(let message):
            return message
        }
    }

    /// "an int", "a string that is not a key path", "a UUID".
    private static func withArticle(_ noun: String) -> String {
        guard let first = noun.first else { return noun }
        let vowel = "aeio".contains(first) || (first == "u" && !noun.hasPrefix("uuid"))
        return (vowel ? "an " : "a ") + noun
    }

    private static func advice(operator op: String, type: String) -> String {
        switch op {
        case "BEGINSWITH", "ENDSWITH", "CONTAINS":
            return "\(op) works only on string and data properties."
        case "LIKE":
            return "LIKE works only on string properties."
        case "[c]", "[d]", "[cd]":
            return "\(op) applies only to string comparisons; remove it."
        case "<", "<=", ">", ">=", "BETWEEN":
            return
                "ordering works on numbers, Decimal128, dates, strings, data, ObjectId and UUID; use == or != instead."
        default:
            return "use == or != instead."
        }
    }
}
