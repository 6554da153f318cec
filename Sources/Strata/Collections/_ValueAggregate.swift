import Foundation
internal import StrataCore

/// The aggregates of a collection of values (`List<Int>.sum()`, `MutableSet<Double>.max()`,
/// `Results<Int>.average()`), computed over the elements with the engine's value rules: nulls
/// are skipped, numbers compare exactly across Int, Float and Double, NaN is never the minimum
/// or maximum. Not API.
enum _ValueAggregate {
    /// The store values of `elements`, nulls left out.
    private static func storeValues<S: Sequence>(_ elements: S) -> [StoreValue] where S.Element: RealmCollectionValue {
        elements.compactMap { e in
            guard let v = coreScalar(e._strataPropertyValue), !v.isNull else { return nil }
            return v
        }
    }

    /// The smallest (or, with `larger`, the largest) non-null element, nil when there is none.
    static func extreme<S: Sequence, T: _PropertyValueConvertible>(_ elements: S, larger: Bool) -> T?
    where S.Element: RealmCollectionValue {
        var best: StoreValue?
        for v in storeValues(elements) {
            // NaN has no order: never picked.
            if case .double(let d) = v, d.isNaN { continue }
            if case .float(let f) = v, f.isNaN { continue }
            guard let current = best else {
                best = v
                continue
            }
            if larger ? StoreValuePredicate.precedes(current, v) : StoreValuePredicate.precedes(v, current) {
                best = v
            }
        }
        return best.flatMap(propertyScalar).flatMap { T._strataFromPropertyValue($0) }
    }

    /// The sum of the non-null elements: zero when there are none.
    static func sum<S: Sequence, T: _PropertyValueConvertible & AdditiveArithmetic>(_ elements: S) -> T
    where S.Element: RealmCollectionValue {
        var ints: Int64 = 0
        var doubles = 0.0
        var isInt = true
        var decimals: Decimal128?
        for v in storeValues(elements) {
            switch v {
            case .int(let i): ints &+= i
            case .double(let d): doubles += d; isInt = false
            case .float(let f): doubles += Double(f); isInt = false
            case .decimal128(let b): decimals = (decimals ?? Decimal128()) + (Decimal128(strataBytes: b) ?? .nan)
            default: break
            }
        }
        if let decimals, let t = T._strataFromPropertyValue(.decimal128(decimals)) { return t }
        if isInt, let t = T._strataFromPropertyValue(.int(ints)) { return t }
        let total = doubles + Double(ints)
        if let t = T._strataFromPropertyValue(.double(total)) { return t }
        if let t = T._strataFromPropertyValue(.float(Float(total))) { return t }
        return .zero
    }

    /// The mean of the non-null numeric elements, nil when there are none.
    static func average<S: Sequence, T: BinaryFloatingPoint>(_ elements: S) -> T?
    where S.Element: RealmCollectionValue {
        var total = 0.0
        var n = 0
        for v in storeValues(elements) {
            switch v {
            case .int(let i): total += Double(i); n += 1
            case .double(let d): total += d; n += 1
            case .float(let f): total += Double(f); n += 1
            default: break
            }
        }
        return n == 0 ? nil : T(total / Double(n))
    }

    /// The mean of the non-null `Decimal128` elements, nil when there are none.
    static func decimalAverage<S: Sequence>(_ elements: S) -> Decimal128? where S.Element: RealmCollectionValue {
        var total = Decimal128()
        var n = 0
        for v in storeValues(elements) {
            if case .decimal128(let b) = v {
                total += Decimal128(strataBytes: b) ?? .nan
                n += 1
            }
        }
        return n == 0 ? nil : total / Decimal128(n)
    }
}
