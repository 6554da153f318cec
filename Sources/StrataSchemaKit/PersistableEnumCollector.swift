import SwiftParser
import SwiftSyntax

/// Finds enums conforming to `PersistableEnum` in one parsed file.
package final class PersistableEnumCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var enums: [EnumDeclaration] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Collects the `PersistableEnum` enums of `tree`.
    package static func collect(in tree: SourceFileSyntax, fileName: String) -> [EnumDeclaration] {
        let collector = PersistableEnumCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.enums
    }

    package override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    package override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    package override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let inherited = node.inheritanceClause?.inheritedTypes.map { ModelCollector.typeExpression($0.type) } ?? []
        guard inherited.contains(.named("PersistableEnum", [])) else { return .visitChildren }
        var rawType: String?
        if case .named(let first, [])? = inherited.first, first != "PersistableEnum" { rawType = first }
        var caseCount = 0
        for member in node.memberBlock.members {
            if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) { caseCount += caseDecl.elements.count }
        }
        let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        enums.append(
            EnumDeclaration(
                name: node.name.text, rawType: rawType, caseCount: caseCount,
                location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
        return .visitChildren
    }
}
