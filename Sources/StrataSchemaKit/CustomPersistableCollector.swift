import SwiftParser
import SwiftSyntax

/// Finds the types of one parsed file that conform to `CustomPersistable` or
/// `FailableCustomPersistable` (in their declaration or an extension) and declare their
/// `PersistedType`.
package final class CustomPersistableCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var types: [CustomPersistableDeclaration] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Collects the custom persistable types of `tree`.
    package static func collect(in tree: SourceFileSyntax, fileName: String) -> [CustomPersistableDeclaration] {
        let collector = CustomPersistableCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.types
    }

    package override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    package override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    package override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.inheritanceClause, node.memberBlock, node)
    }

    package override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.inheritanceClause, node.memberBlock, node)
    }

    package override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.inheritanceClause, node.memberBlock, node)
    }

    package override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.extendedType.trimmedDescription, node.inheritanceClause, node.memberBlock, node)
    }

    private func record(
        _ name: String, _ inheritance: InheritanceClauseSyntax?, _ members: MemberBlockSyntax,
        _ node: some SyntaxProtocol
    ) -> SyntaxVisitorContinueKind {
        let inherited = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        guard inherited.contains(where: { Self.protocolNames.contains($0) }) else { return .visitChildren }
        for member in members.members {
            guard let alias = member.decl.as(TypeAliasDeclSyntax.self), alias.name.text == "PersistedType" else {
                continue
            }
            let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
            types.append(
                CustomPersistableDeclaration(
                    name: name, persistedType: ModelCollector.typeExpression(alias.initializer.value),
                    location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
        }
        return .visitChildren
    }

    private static let protocolNames: Set<String> = [
        "CustomPersistable", "FailableCustomPersistable", "Strata.CustomPersistable",
        "Strata.FailableCustomPersistable",
    ]
}
