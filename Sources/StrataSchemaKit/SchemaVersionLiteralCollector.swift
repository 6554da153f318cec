import SwiftParser
import SwiftSyntax

/// Finds integer literals given as a schema version: the argument `schemaVersion: 2` of any call
/// and assignments `x.schemaVersion = 2`, anywhere in a file (also inside functions and closures,
/// where configurations are made).
package final class SchemaVersionLiteralCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var literals: [SchemaVersionLiteral] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// The schema-version literals of `tree`.
    package static func collect(in tree: SourceFileSyntax, fileName: String) -> [SchemaVersionLiteral] {
        let collector = SchemaVersionLiteralCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.literals
    }

    private func record(_ expression: ExprSyntax) {
        guard let literal = expression.as(IntegerLiteralExprSyntax.self),
            let value = Int(literal.literal.text.replacingOccurrences(of: "_", with: ""))
        else { return }
        let loc = converter.location(for: literal.positionAfterSkippingLeadingTrivia)
        literals.append(
            SchemaVersionLiteral(
                value: value, location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
    }

    package override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
        if node.label?.text == "schemaVersion" { record(node.expression) }
        return .visitChildren
    }

    package override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `a.schemaVersion = 2` before operator folding: [member access, `=`, literal].
        let elements = Array(node.elements)
        for i in elements.indices.dropLast(2) where elements[i + 1].is(AssignmentExprSyntax.self) {
            if let member = elements[i].as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "schemaVersion"
            {
                record(elements[i + 2])
            }
        }
        return .visitChildren
    }
}
