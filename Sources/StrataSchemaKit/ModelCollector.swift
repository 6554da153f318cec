import SwiftParser
import SwiftSyntax

/// Finds model classes (deriving from `Object`, `EmbeddedObject` or `AsymmetricObject`) and their
/// `@Persisted` properties in one parsed file.
///
/// Only top-level classes are models: the generated code extends them by name. A model class nested
/// in another declaration is reported with the fix (move it to the top level).
public final class ModelCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var models: [ModelDeclaration] = []
    private(set) var diagnostics: [SchemaDiagnostic] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Collects the models of `tree`, reporting locations in `fileName`.
    public static func collect(in tree: SourceFileSyntax, fileName: String) -> (models: [ModelDeclaration], diagnostics: [SchemaDiagnostic]) {
        let collector = ModelCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return (collector.models, collector.diagnostics)
    }

    // Bodies of functions, closures and accessors cannot declare models the generator can extend.
    public override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    public override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    public override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    public override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let kind = Self.modelKind(of: node) else { return .visitChildren }
        let name = node.name.text
        if !isTopLevel(node) {
            diagnostics.append(SchemaDiagnostic(at: location(of: node),
                "model class '\(name)' is nested in another declaration; move `class \(name): \(kind.baseClassName)` to the top level of its file"))
            return .skipChildren
        }
        let isFinal = node.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        let accessLevel = node.modifiers.first { [.keyword(.public), .keyword(.open), .keyword(.package)].contains($0.name.tokenKind) }
            .map { $0.name.tokenKind == .keyword(.package) ? "package" : "public" }
        var properties: [PropertyDeclaration] = []
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  let attribute = Self.persistedAttribute(of: variable) else { continue }
            properties.append(contentsOf: property(variable, attribute: attribute))
        }
        models.append(ModelDeclaration(name: name, kind: kind, isFinal: isFinal, accessLevel: accessLevel,
                                      properties: properties, location: location(of: node)))
        return .visitChildren
    }

    // MARK: Reading one declaration

    private func property(_ variable: VariableDeclSyntax, attribute: AttributeSyntax) -> [PropertyDeclaration] {
        let declLocation = location(of: variable)
        var attributes = PersistedAttributes()
        var problems: [String] = []
        if case .argumentList(let arguments) = attribute.arguments {
            for argument in arguments {
                let label = argument.label?.text ?? ""
                switch label {
                case "primaryKey", "indexed":
                    guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                        problems.append("'\(label):' must be the literal `true` or `false`, because the schema is read at build time")
                        continue
                    }
                    let value = literal.literal.tokenKind == .keyword(.true)
                    if label == "primaryKey" { attributes.primaryKey = value } else { attributes.indexed = value }
                case "originProperty", "originalName":
                    guard let text = Self.stringLiteral(argument.expression) else {
                        problems.append("'\(label):' must be a string literal such as \"name\", because the schema is read at build time")
                        continue
                    }
                    if label == "originProperty" { attributes.originProperty = text } else { attributes.originalName = text }
                case "wrappedValue":
                    continue
                default:
                    problems.append("'@Persisted' has no argument '\(label.isEmpty ? "_" : label)'; use primaryKey:, indexed:, originProperty: or originalName:")
                }
            }
        }
        if variable.bindingSpecifier.tokenKind != .keyword(.var) {
            problems.append("'@Persisted' properties must be declared with 'var'; write `@Persisted var`")
        }
        if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
            problems.append("'@Persisted' cannot be used on a static property; remove 'static'")
        }
        if let modifier = variable.modifiers.first(where: { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }) {
            problems.append("'@Persisted' properties cannot be '\(modifier.name.text)', because the generated accessors in another file read and write them; remove '\(modifier.name.text)' (or use 'internal')")
        }
        if variable.bindings.count > 1 {
            problems.append("declare one '@Persisted' property per 'var'")
        }
        var result: [PropertyDeclaration] = []
        for binding in variable.bindings {
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? binding.pattern.trimmedDescription
            var bindingProblems = problems
            if binding.accessorBlock != nil {
                bindingProblems.append("'@Persisted' cannot be used on a computed property; store the value with `@Persisted var \(name): Type`")
            }
            let declaredType = binding.typeAnnotation.map { Self.typeExpression($0.type) }
            let initializer = binding.initializer?.value
            result.append(PropertyDeclaration(
                name: name,
                declaredType: declaredType,
                defaultValue: initializer?.trimmedDescription,
                inferredType: initializer.flatMap(Self.inferType),
                attributes: attributes,
                location: declLocation,
                syntaxProblems: bindingProblems))
        }
        return result
    }

    // MARK: Helpers

    private func location(of node: some SyntaxProtocol) -> SourceLocation {
        let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourceLocation(file: fileName, line: loc.line, column: loc.column)
    }

    private func isTopLevel(_ node: ClassDeclSyntax) -> Bool {
        var parent = node.parent
        while let current = parent {
            if current.is(SourceFileSyntax.self) { return true }
            if current.asProtocol(DeclGroupSyntax.self) != nil { return false }
            parent = current.parent
        }
        return true
    }

    static func modelKind(of node: ClassDeclSyntax) -> ModelKind? {
        guard let first = node.inheritanceClause?.inheritedTypes.first else { return nil }
        switch typeExpression(first.type) {
        case .named("Object", []): return .object
        case .named("EmbeddedObject", []): return .embedded
        case .named("AsymmetricObject", []): return .asymmetric
        default: return nil
        }
    }

    static func persistedAttribute(of variable: VariableDeclSyntax) -> AttributeSyntax? {
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            if case .named("Persisted", _) = typeExpression(attribute.attributeName) { return attribute }
        }
        return nil
    }

    static func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = expr.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let string = segment.as(StringSegmentSyntax.self) else { return nil }
            text += string.content.text
        }
        return text
    }

    /// Reduces a type to a `TypeExpression`, dropping module qualifiers (`Strata.List` is `List`).
    public static func typeExpression(_ type: TypeSyntax) -> TypeExpression {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return .optional(typeExpression(optional.wrappedType))
        }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return .optional(typeExpression(iuo.wrappedType))
        }
        let name: String
        let genericClause: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            name = identifier.name.text
            genericClause = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self) {
            name = member.name.text
            genericClause = member.genericArgumentClause
        } else {
            return .unsupported(type.trimmedDescription)
        }
        var arguments: [TypeExpression] = []
        for argument in genericClause?.arguments ?? [] {
            guard case .type(let argumentType) = argument.argument else { return .unsupported(type.trimmedDescription) }
            arguments.append(typeExpression(argumentType))
        }
        if name == "Optional", arguments.count == 1 { return .optional(arguments[0]) }
        return .named(name, arguments)
    }

    /// The type of a default value, for the forms the Realm docs use: literals, `Date()`,
    /// `ObjectId.generate()`, `List<Dog>()`, `Status.open`.
    static func inferType(_ expr: ExprSyntax) -> TypeExpression? {
        if expr.is(StringLiteralExprSyntax.self) { return .named("String", []) }
        if expr.is(IntegerLiteralExprSyntax.self) { return .named("Int", []) }
        if expr.is(FloatLiteralExprSyntax.self) { return .named("Double", []) }
        if expr.is(BooleanLiteralExprSyntax.self) { return .named("Bool", []) }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return inferType(prefix.expression)
        }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            return typeNamed(by: call.calledExpression, dropLastMember: true)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base {
            // `Status.open`, `Date.now`: the value has the base's type.
            return typeNamed(by: base, dropLastMember: false)
        }
        return nil
    }

    /// `Date` -> Date, `List<Dog>` -> List<Dog>, `ObjectId.generate` -> ObjectId, `Dog.init` -> Dog.
    private static func typeNamed(by expr: ExprSyntax, dropLastMember: Bool) -> TypeExpression? {
        if let reference = expr.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return name.first?.isUppercase == true ? .named(name, []) : nil
        }
        if let specialized = expr.as(GenericSpecializationExprSyntax.self),
           case .named(let name, _)? = typeNamed(by: specialized.expression, dropLastMember: false) {
            var arguments: [TypeExpression] = []
            for argument in specialized.genericArgumentClause.arguments {
                guard case .type(let type) = argument.argument else { return nil }
                arguments.append(typeExpression(type))
            }
            if name == "Optional", arguments.count == 1 { return .optional(arguments[0]) }
            return .named(name, arguments)
        }
        if dropLastMember, let member = expr.as(MemberAccessExprSyntax.self), let base = member.base {
            return typeNamed(by: base, dropLastMember: false)
        }
        if let member = expr.as(MemberAccessExprSyntax.self), member.base != nil,
           member.declName.baseName.text.first?.isUppercase == true {
            // A qualified type such as `Foundation.Date`.
            return .named(member.declName.baseName.text, [])
        }
        return nil
    }
}

/// Finds enums conforming to `PersistableEnum` in one parsed file.
public final class PersistableEnumCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var enums: [EnumDeclaration] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// Collects the `PersistableEnum` enums of `tree`.
    public static func collect(in tree: SourceFileSyntax, fileName: String) -> [EnumDeclaration] {
        let collector = PersistableEnumCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.enums
    }

    public override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    public override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    public override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let inherited = node.inheritanceClause?.inheritedTypes.map { ModelCollector.typeExpression($0.type) } ?? []
        guard inherited.contains(.named("PersistableEnum", [])) else { return .visitChildren }
        var rawType: String?
        if case .named(let first, [])? = inherited.first, first != "PersistableEnum" { rawType = first }
        var caseCount = 0
        for member in node.memberBlock.members {
            if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) { caseCount += caseDecl.elements.count }
        }
        let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        enums.append(EnumDeclaration(name: node.name.text, rawType: rawType, caseCount: caseCount,
                                     location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
        return .visitChildren
    }
}

/// Parses source files and runs both collectors over each.
public enum DeclarationCollection {
    /// One file to read: its text and the name used in diagnostics.
    public struct Input: Sendable {
        public var displayPath: String
        public var source: String
        public init(displayPath: String, source: String) {
            self.displayPath = displayPath
            self.source = source
        }
    }

    /// Collects the declarations of all `inputs`, in the order given.
    public static func collect(_ inputs: [Input]) -> CollectedDeclarations {
        var result = CollectedDeclarations()
        for input in inputs {
            let tree = Parser.parse(source: input.source)
            let (models, diagnostics) = ModelCollector.collect(in: tree, fileName: input.displayPath)
            result.models += models
            result.diagnostics += diagnostics
            result.enums += PersistableEnumCollector.collect(in: tree, fileName: input.displayPath)
            result.otherClasses += SubclassCollector.collect(in: tree, fileName: input.displayPath)
            result.schemaVersionLiterals += SchemaVersionLiteralCollector.collect(in: tree, fileName: input.displayPath)
        }
        return result
    }
}

/// Finds classes that inherit from a named class other than the model base classes, so the
/// resolver can report subclasses of model classes.
public final class SubclassCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var classes: [SubclassDeclaration] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// The non-model classes of `tree` with their superclass names.
    public static func collect(in tree: SourceFileSyntax, fileName: String) -> [SubclassDeclaration] {
        let collector = SubclassCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.classes
    }

    public override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    public override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    public override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        if ModelCollector.modelKind(of: node) == nil,
           let first = node.inheritanceClause?.inheritedTypes.first,
           case .named(let superclass, []) = ModelCollector.typeExpression(first.type) {
            let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
            classes.append(SubclassDeclaration(name: node.name.text, superclass: superclass,
                                               location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
        }
        return .visitChildren
    }
}

/// Finds integer literals given as a schema version: the argument `schemaVersion: 2` of any call
/// and assignments `x.schemaVersion = 2`, anywhere in a file (also inside functions and closures,
/// where configurations are made).
public final class SchemaVersionLiteralCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var literals: [SchemaVersionLiteral] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// The schema-version literals of `tree`.
    public static func collect(in tree: SourceFileSyntax, fileName: String) -> [SchemaVersionLiteral] {
        let collector = SchemaVersionLiteralCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return collector.literals
    }

    private func record(_ expression: ExprSyntax) {
        guard let literal = expression.as(IntegerLiteralExprSyntax.self),
              let value = Int(literal.literal.text.replacingOccurrences(of: "_", with: "")) else { return }
        let loc = converter.location(for: literal.positionAfterSkippingLeadingTrivia)
        literals.append(SchemaVersionLiteral(value: value, location: SourceLocation(file: fileName, line: loc.line, column: loc.column)))
    }

    public override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
        if node.label?.text == "schemaVersion" { record(node.expression) }
        return .visitChildren
    }

    public override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `a.schemaVersion = 2` before operator folding: [member access, `=`, literal].
        let elements = Array(node.elements)
        for i in elements.indices.dropLast(2) where elements[i + 1].is(AssignmentExprSyntax.self) {
            if let member = elements[i].as(MemberAccessExprSyntax.self), member.declName.baseName.text == "schemaVersion" {
                record(elements[i + 2])
            }
        }
        return .visitChildren
    }
}
