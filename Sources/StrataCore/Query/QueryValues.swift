import Foundation
import StrataQuery

// The value semantics of the query engine: what `==`, `<`, `BEGINSWITH`, `LIKE` mean for each
// kind of `StoreValue`. Every comparison in a query, fast path or not, follows these rules:
//
// - `null == null` is true; `null` is neither less nor greater than anything, so `<`, `<=`, `>`,
//   `>=`, `BETWEEN` and the string operators are false when either side is null (as in Realm).
//   `!=` is the negation of `==`.
// - Int, Float and Double compare numerically and exactly (`Int64.max` is not equal to
//   `Double(Int64.max)`, which is 2^63). NaN is equal to nothing and unordered.
// - Strings compare by their UTF-8 bytes, which is Unicode scalar order, and are equal only when
//   their bytes are (no normalisation, as in Realm). `[c]` lower-cases both sides, `[d]` removes
//   combining marks after canonical decomposition (`é` -> `e`).
// - Dates compare by (seconds, nanoseconds); ObjectId, UUID and data by their bytes.
// - Decimal128 values compare by numeric value (`0.10 == 0.1`, `-0 == 0`) in a total order: NaN
//   (equal to NaN), negative infinity, the finite values, positive infinity (`StoreDecimal`).
// - Values of different kinds (possible only in `AnyRealmValue` columns) are never equal and
//   never ordered.

enum QueryValues {
    // MARK: Equality and order

    /// `a == b` under the rules above (null equals null).
    static func equal(_ a: StoreValue, _ b: StoreValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.bool(let x), .bool(let y)): return x == y
        case (.link(let x), .link(let y)): return x == y
        case (.typedLink(let t, let x), .typedLink(let u, let y)): return x == y && t == u
        case (.data(let x), .data(let y)), (.objectId(let x), .objectId(let y)), (.uuid(let x), .uuid(let y)):
            return x == y
        case (.decimal128(let x), .decimal128(let y)): return StoreDecimal.compare(x, y).map { $0 == 0 } ?? (x == y)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)): return s1 == s2 && n1 == n2
        case (.list, _), (.map, _), (_, .list), (_, .map): return false
        default:
            return compare(a, b) == 0
        }
    }

    /// The order of `a` and `b`: negative, zero or positive; nil when either is null, NaN, or the
    /// two are of kinds without a common order.
    static func compare(_ a: StoreValue, _ b: StoreValue) -> Int? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.int(let x), .double(let y)): return compare(x, y)
        case (.int(let x), .float(let y)): return compare(x, Double(y))
        case (.double(let x), .int(let y)): return compare(y, x).map { -$0 }
        case (.float(let x), .int(let y)): return compare(y, Double(x)).map { -$0 }
        case (.double(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .float(let y)): return compare(x, Double(y))
        case (.float(let x), .double(let y)): return compare(Double(x), y)
        case (.float(let x), .float(let y)): return compare(Double(x), Double(y))
        case (.string(let x), .string(let y)): return compareBytes(x.utf8, y.utf8)
        case (.data(let x), .data(let y)), (.objectId(let x), .objectId(let y)), (.uuid(let x), .uuid(let y)):
            return compareBytes(x, y)
        case (.decimal128(let x), .decimal128(let y)): return StoreDecimal.compare(x, y)
        case (.timestamp(let s1, let n1), .timestamp(let s2, let n2)):
            if s1 != s2 { return s1 < s2 ? -1 : 1 }
            return n1 < n2 ? -1 : (n1 == n2 ? 0 : 1)
        default:
            return nil
        }
    }

    @inline(__always)
    static func compare(_ x: Double, _ y: Double) -> Int? {
        if x < y { return -1 }
        if x > y { return 1 }
        if x == y { return 0 }
        return nil  // NaN
    }

    /// Exact comparison of an integer with a double (no rounding of either): nil when `d` is NaN.
    @inline(__always)
    static func compare(_ i: Int64, _ d: Double) -> Int? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return -1 }  // 2^63: above every Int64
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let t = d.rounded(.towardZero)  // now in [-2^63, 2^63), so the conversion is exact
        let ti = Int64(t)
        if i != ti { return i < ti ? -1 : 1 }
        if d > t { return -1 }
        if d < t { return 1 }
        return 0
    }

    @inline(__always)
    static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B) -> Int
    where A.Element == UInt8, B.Element == UInt8 {
        var i = a.makeIterator(), j = b.makeIterator()
        while true {
            switch (i.next(), j.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// `memcmp` order of two byte buffers, shorter prefix first. No allocation.
    @inline(__always)
    static func compareRaw(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = min(a.count, b.count)
        if n > 0 {
            let r = memcmp(a.baseAddress!, b.baseAddress!, n)
            if r != 0 { return r < 0 ? -1 : 1 }
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    @inline(__always)
    static func rawEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    @inline(__always)
    static func rawBeginsWith(_ a: UnsafeRawBufferPointer, _ p: UnsafeRawBufferPointer) -> Bool {
        a.count >= p.count && (p.count == 0 || memcmp(a.baseAddress!, p.baseAddress!, p.count) == 0)
    }

    @inline(__always)
    static func rawEndsWith(_ a: UnsafeRawBufferPointer, _ p: UnsafeRawBufferPointer) -> Bool {
        a.count >= p.count
            && (p.count == 0 || memcmp(a.baseAddress! + (a.count - p.count), p.baseAddress!, p.count) == 0)
    }

    static func rawContains(_ a: UnsafeRawBufferPointer, _ p: UnsafeRawBufferPointer) -> Bool {
        if p.count == 0 { return true }
        if a.count < p.count { return false }
        let first = p[0]
        var i = 0
        let last = a.count - p.count
        while i <= last {
            if a[i] == first && memcmp(a.baseAddress! + i, p.baseAddress!, p.count) == 0 { return true }
            i += 1
        }
        return false
    }

    // MARK: String operators

    /// `s` with `[c]` and `[d]` applied: combining marks removed after canonical decomposition
    /// (`[d]`), then lower-cased (`[c]`).
    static func fold(_ s: String, _ options: QueryStringOptions) -> String {
        var t = s
        if options.contains(.diacriticInsensitive) {
            var scalars = String.UnicodeScalarView()
            for u in t.decomposedStringWithCanonicalMapping.unicodeScalars
            where u.properties.generalCategory != .nonspacingMark {
                scalars.append(u)
            }
            t = String(scalars)
        }
        if options.contains(.caseInsensitive) { t = t.lowercased() }
        return t
    }

    /// Applies a string operator to two strings already folded by `fold(_:_:)`.
    static func stringOp(_ op: QueryOperator, _ s: String, _ p: String) -> Bool {
        switch op {
        case .equal: return s.utf8.elementsEqual(p.utf8)
        case .notEqual: return !s.utf8.elementsEqual(p.utf8)
        case .beginsWith: return s.utf8.starts(with: p.utf8)
        case .endsWith: return s.utf8.reversed().starts(with: p.utf8.reversed())
        case .contains: return containsBytes(Array(s.utf8), Array(p.utf8))
        case .like: return like(Array(s.unicodeScalars), Array(p.unicodeScalars))
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return ordered(op, compareBytes(s.utf8, p.utf8))
        case .in, .between:
            return false
        }
    }

    /// Applies BEGINSWITH, ENDSWITH or CONTAINS to two byte strings (data values).
    static func bytesOp(_ op: QueryOperator, _ s: [UInt8], _ p: [UInt8]) -> Bool {
        switch op {
        case .beginsWith: return s.starts(with: p)
        case .endsWith: return s.reversed().starts(with: p.reversed())
        case .contains: return containsBytes(s, p)
        default: return false
        }
    }

    static func containsBytes(_ a: [UInt8], _ p: [UInt8]) -> Bool {
        a.withUnsafeBytes { ab in p.withUnsafeBytes { pb in rawContains(ab, pb) } }
    }

    /// `LIKE`: `*` matches any run of scalars (also none), `?` exactly one; everything else
    /// matches itself. Linear backtracking on the last `*`, so no input is exponential.
    static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                t += 1
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Whether an order `c` (negative, zero, positive) satisfies an ordering operator.
    @inline(__always)
    static func ordered(_ op: QueryOperator, _ c: Int) -> Bool {
        switch op {
        case .lessThan: return c < 0
        case .lessThanOrEqual: return c <= 0
        case .greaterThan: return c > 0
        case .greaterThanOrEqual: return c >= 0
        case .equal: return c == 0
        case .notEqual: return c != 0
        default: return false
        }
    }

    // MARK: Comparisons of two values

    /// A test of `lhs op[options] rhs` for two values of compatible kinds (checked at bind time).
    /// `in` and `between` are handled by their callers.
    static func pairTest(_ op: QueryOperator, _ options: QueryStringOptions) -> (StoreValue, StoreValue) -> Bool {
        switch op {
        case .equal, .notEqual:
            let negate = op == .notEqual
            if options.isEmpty {
                return { a, b in equal(a, b) != negate }
            }
            return { a, b in
                if case .string(let x) = a, case .string(let y) = b {
                    return stringOp(.equal, fold(x, options), fold(y, options)) != negate
                }
                return equal(a, b) != negate
            }
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return { a, b in compare(a, b).map { ordered(op, $0) } ?? false }
        case .beginsWith, .endsWith, .contains, .like:
            return { a, b in
                switch (a, b) {
                case (.string(let x), .string(let y)):
                    return stringOp(op, fold(x, options), fold(y, options))
                case (.data(let x), .data(let y)) where op != .like:
                    return bytesOp(op, x, y)
                default:
                    return false
                }
            }
        case .in, .between:
            return { _, _ in false }
        }
    }

    /// A test of `value op[options] constant`, with the constant prepared once (folded for
    /// `[c]`/`[d]`, split into scalars for `LIKE`).
    static func constantTest(
        _ op: QueryOperator, _ options: QueryStringOptions, _ constant: StoreValue
    ) -> (StoreValue) -> Bool {
        let folds: Bool
        switch op {
        case .beginsWith, .endsWith, .contains, .like: folds = true
        case .equal, .notEqual: folds = !options.isEmpty
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .in, .between: folds = false
        }
        guard folds, case .string(let pattern) = constant else {
            let test = pairTest(op, options)
            return { test($0, constant) }
        }
        let folded = fold(pattern, options)
        if op == .like {
            let scalars = Array(folded.unicodeScalars)
            return { v in
                guard case .string(let s) = v else { return false }
                return like(Array(fold(s, options).unicodeScalars), scalars)
            }
        }
        // A value that is not a string (null, or another kind in a mixed column) never equals a
        // string: `==` is false, `!=` true, the other operators false.
        let negate = op == .notEqual
        let stringOperator = negate ? QueryOperator.equal : op
        return { v in
            guard case .string(let s) = v else { return negate }
            return stringOp(stringOperator, fold(s, options), folded) != negate
        }
    }

    // MARK: Aggregates

    /// `@sum` of numeric values (nulls skipped): an int for ints (wrapping on overflow rather than
    /// trapping), a double as soon as one value is a float or double.
    static func sum(_ values: [StoreValue]) -> StoreValue {
        var i: Int64 = 0
        var d = 0.0
        var isDouble = false
        for v in values {
            switch v {
            case .int(let x): i &+= x
            case .float(let x): d += Double(x); isDouble = true
            case .double(let x): d += x; isDouble = true
            default: break
            }
        }
        return isDouble ? .double(d + Double(i)) : .int(i)
    }

    /// `@avg` of numeric values (nulls skipped); null when there are none.
    static func average(_ values: [StoreValue]) -> StoreValue {
        var total = 0.0
        var count = 0
        for v in values {
            switch v {
            case .int(let x): total += Double(x); count += 1
            case .float(let x): total += Double(x); count += 1
            case .double(let x): total += x; count += 1
            default: break
            }
        }
        return count == 0 ? .null : .double(total / Double(count))
    }

    /// `@min` (`sign` -1) or `@max` (`sign` 1) of ordered values (nulls and NaN skipped); null when
    /// there are none.
    static func extreme(_ values: [StoreValue], sign: Int) -> StoreValue {
        var best: StoreValue = .null
        for v in values where !v.isNull {
            if best.isNull {
                if compare(v, v) != nil { best = v }
            } else if let c = compare(v, best), c * sign > 0 {
                best = v
            }
        }
        return best
    }
}
