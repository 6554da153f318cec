struct QueryPrinter {
    enum Style { case positional, indexed }

    let style: Style
    var output = ""

    init(style: Style) {
        self.style = style
    }

    /// `.positional` if the placeholders' indices are 0, 1, 2, ... in reading order.
    static func style(for predicate: QueryPredicate) -> Style {
        var indices: [Int] = []
        func visit(_ operand: QueryOperand) {
            switch operand {
            case .argument(let index), .keyPathArgument(let index): indices.append(index)
            case .list(let elements): elements.forEach(visit)
            case .subqueryCount(let subquery): visit(subquery.predicate)
            case .keyPath, .literal: break
            }
        }
        func visit(_ predicate: QueryPredicate) {
            switch predicate {
            case .comparison(let c): visit(c.left); visit(c.right)
            case .and(let children), .or(let children): children.forEach(visit)
            case .not(let inner): visit(inner)
            case .truePredicate, .falsePredicate: break
            }
        }
        visit(predicate)
        return indices == Array(indices.indices) ? .positional : .indexed
    }

    mutating func predicate(_ predicate: QueryPredicate) {
        switch predicate {
        case .comparison(let c):
            comparison(c)
        case .and(let children):
            guard !children.isEmpty else { output += "TRUEPREDICATE"; return }
            for (i, child) in children.enumerated() {
                if i > 0 { output += " AND " }
                if case .or = child { parenthesized(child) } else { self.predicate(child) }
            }
        case .or(let children):
            guard !children.isEmpty else { output += "FALSEPREDICATE"; return }
            for (i, child) in children.enumerated() {
                if i > 0 { output += " OR " }
                self.predicate(child)
            }
        case .not(let inner):
            output += "NOT "
            switch inner {
            case .and, .or: parenthesized(inner)
            case .comparison, .not, .truePredicate, .falsePredicate: self.predicate(inner)
            }
        case .truePredicate:
            output += "TRUEPREDICATE"
        case .falsePredicate:
            output += "FALSEPREDICATE"
        }
    }

    private mutating func parenthesized(_ predicate: QueryPredicate) {
        output += "("
        self.predicate(predicate)
        output += ")"
    }

    mutating func comparison(_ c: QueryComparison) {
        if let quantifier = c.quantifier { output += quantifier.rawValue + " " }
        operand(c.left)
        output += " " + c.op.rawValue
        if !c.options.isEmpty {
            output += "["
            if c.options.contains(.caseInsensitive) { output += "c" }
            if c.options.contains(.diacriticInsensitive) { output += "d" }
            output += "]"
        }
        output += " "
        operand(c.right)
    }

    mutating func operand(_ operand: QueryOperand) {
        switch operand {
        case .keyPath(let components, let aggregate):
            output += components.joined(separator: ".")
            if case .element = aggregate {
                output += aggregate!.name
            } else if let aggregate {
                output += "." + aggregate.name
                if let property = aggregate.property { output += "." + property }
            }
        case .literal(let literal):
            output += literal.description
        case .argument(let index):
            output += style == .positional ? "%@" : "$\(index)"
        case .keyPathArgument:
            output += "%K"
        case .list(let elements):
            output += "{"
            for (i, element) in elements.enumerated() {
                if i > 0 { output += ", " }
                self.operand(element)
            }
            output += "}"
        case .subqueryCount(let subquery):
            output += "SUBQUERY(" + subquery.collection.joined(separator: ".") + ", " + subquery.variable + ", "
            predicate(subquery.predicate)
            output += ").@count"
        }
    }

    /// `'...'` with `\\`, `\'` and control characters escaped; everything else as written.
    static func quoted(_ value: String) -> String {
        var result = "'"
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "'"
    }
}
