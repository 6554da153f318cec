import Foundation
import SwiftParser
import SwiftSyntax

/// Finds projection classes (`class PersonProjection: Projection<Person>`) and their
/// `@Projected(\Person.firstName) var firstName` properties in one parsed file.
///
/// The key path of a projected property must be a key path literal naming its root type, as
/// RealmSwift's examples write it; anything else is reported with the fix.
package final class ProjectionCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var projections: [ProjectionDeclaration] = []
    private(set) var diagnostics: [SchemaDiagnostic] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// The projections of `tree` and the problems found in them, with locations in `fileName`.
    package static func collect(
        in tree: SourceFileSyntax, fileName: String
    ) -> (projections: [ProjectionDeclaration], diagnostics: [SchemaDiagnostic]) {
        let collector = ProjectionCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return (collector.projections, collector.diagnostics)
    }

    package override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let first = node.inheritanceClause?.inheritedTypes.first,
            case .named("Projection", let arguments) = ModelCollector.typeExpression(first.type),
            arguments.count == 1, case .named(let rootName, []) = arguments[0]
        else { return .visitChildren }
        let name = node.name.text
        guard let path = enclosingTypes(of: node) else {
            diagnostics.append(
                SchemaDiagnostic(
                    at: location(of: node),
                    "projection class '\(name)' is declared inside a function or closure, where the generated file cannot reach it; move `class \(name): Projection<\(rootName)>` to the top level of its file"
                ))
            return .visitChildren
        }
        if node.genericParameterClause != nil {
            diagnostics.append(
                SchemaDiagnostic(
                    at: location(of: node),
                    "projection class '\(name)' is generic, but its list of projected properties is generated once per class; remove the generic parameters from `class \(name): Projection<\(rootName)>`"
                ))
            return .visitChildren
        }
        if let modifier = node.modifiers.first(where: {
            [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
        }) {
            diagnostics.append(
                SchemaDiagnostic(
                    at: location(of: node),
                    "projection class '\(name)' is '\(modifier.name.text)', but the generated file must reach it; remove '\(modifier.name.text)' (or use 'internal')"
                ))
            return .visitChildren
        }
        let accessLevel = node.modifiers.first {
            [.keyword(.public), .keyword(.open), .keyword(.package)].contains($0.name.tokenKind)
        }
        .map { $0.name.tokenKind == .keyword(.package) ? "package" : "public" }
        var properties: [ProjectionDeclaration.Property] = []
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                let attribute = Self.projectedAttribute(of: variable),
                let binding = variable.bindings.first,
                let spelling = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else { continue }
            let label = spelling.trimmingCharacters(in: ["`"])
            guard let argument = attribute.arguments?.as(LabeledExprListSyntax.self)?.first?.expression,
                let keyPath = argument.as(KeyPathExprSyntax.self), keyPath.root != nil
            else {
                diagnostics.append(
                    SchemaDiagnostic(
                        at: location(of: variable),
                        "the projected property '\(label)' of '\(name)' must name its key path as a literal with its root type, e.g. `@Projected(\\\(rootName).\(label)) var \(label)`"
                    ))
                continue
            }
            var components: [String] = []
            for component in keyPath.components {
                if let property = component.component.as(KeyPathPropertyComponentSyntax.self) {
                    components.append(property.declName.baseName.text)
                }
            }
            properties.append(
                .init(label: label, spelling: spelling, components: components, location: location(of: variable)))
        }
        projections.append(
            ProjectionDeclaration(
                name: name, qualifiedName: (path + [name]).joined(separator: "."), rootName: rootName,
                accessLevel: accessLevel, properties: properties, location: location(of: node)))
        return .visitChildren
    }

    /// The names of the types enclosing `node`, outermost first; nil inside a function or closure.
    private func enclosingTypes(of node: ClassDeclSyntax) -> [String]? {
        var path: [String] = []
        var parent = node.parent
        while let current = parent {
            if current.is(CodeBlockSyntax.self) || current.is(ClosureExprSyntax.self) { return nil }
            if let decl = current.as(ClassDeclSyntax.self) {
                path.insert(decl.name.text, at: 0)
            } else if let decl = current.as(StructDeclSyntax.self) {
                path.insert(decl.name.text, at: 0)
            } else if let decl = current.as(EnumDeclSyntax.self) {
                path.insert(decl.name.text, at: 0)
            } else if let decl = current.as(ExtensionDeclSyntax.self) {
                path.insert(decl.extendedType.trimmedDescription, at: 0)
            }
            parent = current.parent
        }
        return path
    }

    static func projectedAttribute(of variable: VariableDeclSyntax) -> AttributeSyntax? {
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            if case .named("Projected", _) = ModelCollector.typeExpression(attribute.attributeName) {
                return attribute
            }
        }
        return nil
    }

    private func location(of node: some SyntaxProtocol) -> SourceLocation {
        let l = node.startLocation(converter: converter)
        return SourceLocation(file: fileName, line: l.line, column: l.column)
    }
}
