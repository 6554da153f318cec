import SwiftParser
import SwiftSyntax

/// Finds model classes (deriving from `Object`, `EmbeddedObject` or `AsymmetricObject`), classes
/// that may be subclasses of models (the resolver decides), and their `@Persisted` properties in
/// one parsed file.
///
/// A model class may be nested in a type (`Outer.Inner`, stored as `Inner`); the generated code
/// extends it by its qualified name, so it cannot be nested in a generic type, a private type, or
/// a function: those are reported with the fix.
package final class ModelCollector: SyntaxVisitor {
    private let converter: SourceLocationConverter
    private let fileName: String
    private(set) var models: [ModelDeclaration] = []
    private(set) var candidates: [ModelDeclaration] = []
    private(set) var diagnostics: [SchemaDiagnostic] = []

    private init(fileName: String, tree: SourceFileSyntax) {
        self.fileName = fileName
        self.converter = SourceLocationConverter(fileName: fileName, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    /// What one file declares: models, classes deriving from other classes (models if those
    /// are), and problems found while reading them.
    package struct Result: Sendable {
        package var models: [ModelDeclaration]
        package var candidates: [ModelDeclaration]
        package var diagnostics: [SchemaDiagnostic]
    }

    /// Collects the models of `tree`, reporting locations in `fileName`.
    package static func collect(in tree: SourceFileSyntax, fileName: String) -> Result {
        let collector = ModelCollector(fileName: fileName, tree: tree)
        collector.walk(tree)
        return Result(models: collector.models, candidates: collector.candidates, diagnostics: collector.diagnostics)
    }

    package override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let kind = Self.modelKind(of: node)
        let superclass = kind == nil ? Self.superclassName(of: node) : nil
        guard kind != nil || superclass != nil else { return .visitChildren }
        let name = node.name.text
        let baseText = kind.map { "class \(name): \($0.baseClassName)" } ?? "class \(name): \(superclass ?? "")"
        let (path, placement) = placement(of: node, name: name, declaration: baseText)
        var problem = placement
        if problem == nil, node.genericParameterClause != nil {
            problem =
                "model class '\(name)' is generic, but a model's schema is one per class, not one per type argument; remove the generic parameters from `\(baseText)`"
        }
        if problem == nil,
            let modifier = node.modifiers.first(where: {
                [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
            })
        {
            problem =
                "model class '\(name)' is '\(modifier.name.text)', but the generated file must reach it; remove '\(modifier.name.text)' (or use 'internal')"
        }
        let isFinal = node.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        let accessLevel = node.modifiers.first {
            [.keyword(.public), .keyword(.open), .keyword(.package)].contains($0.name.tokenKind)
        }
        .map { $0.name.tokenKind == .keyword(.package) ? "package" : "public" }
        var properties: [PropertyDeclaration] = []
        var mapping: PropertiesMappingDeclaration?
        var legacy: [SchemaDiagnostic] = []
        for member in node.memberBlock.members {
            if let function = member.decl.as(FunctionDeclSyntax.self) {
                if function.name.text == "propertiesMapping", function.signature.parameterClause.parameters.isEmpty {
                    mapping = propertiesMapping(function)
                } else if let message = Self.legacyClassFunctions[function.name.text],
                    function.signature.parameterClause.parameters.isEmpty,
                    function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.override) })
                {
                    legacy.append(SchemaDiagnostic(at: location(of: function), message))
                }
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            guard let attribute = Self.persistedAttribute(of: variable) else {
                if let message = legacyProperty(variable) {
                    legacy.append(SchemaDiagnostic(at: location(of: variable), message))
                }
                continue
            }
            properties.append(contentsOf: property(variable, attribute: attribute))
        }
        var declaration = ModelDeclaration(
            name: name, qualifiedName: (path + [name]).joined(separator: "."), kind: kind ?? .object,
            superclassName: superclass, isFinal: isFinal, accessLevel: accessLevel,
            properties: properties, location: location(of: node), propertiesMapping: mapping)
        declaration.placementProblem = problem
        declaration.legacyDeclarations = legacy
        declaration.needsGeneratedEncode = Self.declaresEncodable(node) && !Self.writesEncode(node)
        if kind != nil { models.append(declaration) } else { candidates.append(declaration) }
        return .visitChildren
    }

    /// The names of the types enclosing `node` (outermost first), and why the generated code
    /// could not reach a model declared there, if it could not.
    private func placement(of node: ClassDeclSyntax, name: String, declaration: String) -> ([String], String?) {
        var path: [String] = []
        var problem: String?
        var parent = node.parent
        while let current = parent {
            if current.is(CodeBlockSyntax.self) || current.is(ClosureExprSyntax.self)
                || current.is(AccessorBlockSyntax.self)
            {
                return (
                    path,
                    "model class '\(name)' is declared inside a function or closure, where the generated file cannot reach it; move `\(declaration)` to the top level of its file (or into a type)"
                )
            }
            var typeName: String?
            var isGeneric = false
            var hidden: String?
            if let decl = current.as(ClassDeclSyntax.self) {
                typeName = decl.name.text; isGeneric = decl.genericParameterClause != nil;
                hidden = Self.hiddenModifier(decl.modifiers)
            } else if let decl = current.as(StructDeclSyntax.self) {
                typeName = decl.name.text; isGeneric = decl.genericParameterClause != nil;
                hidden = Self.hiddenModifier(decl.modifiers)
            } else if let decl = current.as(EnumDeclSyntax.self) {
                typeName = decl.name.text; isGeneric = decl.genericParameterClause != nil;
                hidden = Self.hiddenModifier(decl.modifiers)
            } else if let decl = current.as(ActorDeclSyntax.self) {
                typeName = decl.name.text; isGeneric = decl.genericParameterClause != nil;
                hidden = Self.hiddenModifier(decl.modifiers)
            } else if let decl = current.as(ExtensionDeclSyntax.self) {
                typeName = decl.extendedType.trimmedDescription
                isGeneric = typeName?.contains("<") ?? false || decl.genericWhereClause != nil
                hidden = Self.hiddenModifier(decl.modifiers)
            } else if current.is(ProtocolDeclSyntax.self) {
                return (
                    path,
                    "model class '\(name)' cannot be declared in a protocol; move `\(declaration)` to the top level of its file"
                )
            }
            if let typeName {
                path.insert(typeName, at: 0)
                if problem == nil, isGeneric {
                    problem =
                        "model class '\(name)' is nested in the generic type '\(typeName)', whose classes the generated file cannot extend once for all its type arguments; move `\(declaration)` out of '\(typeName)'"
                } else if problem == nil, let hidden {
                    problem =
                        "model class '\(name)' is nested in '\(typeName)', which is '\(hidden)', so the generated file cannot reach it; remove '\(hidden)' from '\(typeName)' (or move `\(declaration)` out of it)"
                }
            }
            parent = current.parent
        }
        return (path, problem)
    }

    private static func hiddenModifier(_ modifiers: DeclModifierListSyntax) -> String? {
        modifiers.first { [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind) }?.name.text
    }

    /// RealmSwift's legacy class methods, which Strata reads from `@Persisted` arguments instead.
    static let legacyClassFunctions: [String: String] = [
        "primaryKey":
            "'primaryKey()' is RealmSwift's legacy way to name the primary key, which Strata does not read; remove it and write `@Persisted(primaryKey: true)` on the key property",
        "indexedProperties":
            "'indexedProperties()' is RealmSwift's legacy way to index properties, which Strata does not read; remove it and write `@Persisted(indexed: true)` on each indexed property",
        "ignoredProperties":
            "'ignoredProperties()' is RealmSwift's legacy way to ignore properties, which Strata does not need; remove it: properties without `@Persisted` are not stored",
    ]

    /// A legacy RealmSwift property declaration in a model (stored by RealmSwift, not by Strata),
    /// with what to write instead.
    private func legacyProperty(_ variable: VariableDeclSyntax) -> String? {
        guard let binding = variable.bindings.first, variable.bindings.count == 1,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.trimmingCharacters(in: ["`"])
        else { return nil }
        if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
            return nil
        }
        let type =
            binding.typeAnnotation.map { Self.typeExpression($0.type) }
            ?? binding.initializer.flatMap { Self.inferType($0.value) }
        if case .named(let collection, let arguments)? = type {
            switch collection {
            case "List", "MutableSet", "Map":
                return
                    "'\(name)' is declared as RealmSwift's legacy `\(variable.bindingSpecifier.text) \(name) = \(collection)<...>()`, which Strata does not store; write `@Persisted var \(name): \(collection)<\(arguments.map(\.description).joined(separator: ", "))>`"
            case "LinkingObjects":
                return
                    "'\(name)' is declared as RealmSwift's legacy `LinkingObjects(fromType:property:)`, which Strata does not read; write `@Persisted(originProperty: \"property\") var \(name): LinkingObjects<\(arguments.first?.description ?? "Model")>`"
            case "RealmProperty", "RealmOptional":
                let wrapped =
                    arguments.first.map { a -> String in
                        if case .optional = a { return a.description } else { return "\(a)?" }
                    } ?? "Type?"
                return
                    "'\(name)' is declared as RealmSwift's legacy `\(collection)`, which Strata does not store; write `@Persisted var \(name): \(wrapped)`"
            default: break
            }
        }
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.dynamic) }) {
            let spelled = binding.typeAnnotation.map { ": \($0.type.trimmedDescription)" } ?? ""
            let initial = binding.initializer.map { " = \($0.value.trimmedDescription)" } ?? ""
            return
                "'\(name)' is declared as RealmSwift's legacy `@objc dynamic var`, which Strata does not store; write `@Persisted var \(name)\(spelled)\(initial)`"
        }
        return nil
    }

    /// Reads `propertiesMapping()`'s body: a dictionary literal of string literals, returned
    /// or written as the single expression of the body.
    private func propertiesMapping(_ function: FunctionDeclSyntax) -> PropertiesMappingDeclaration {
        var declaration = PropertiesMappingDeclaration(entries: [], location: location(of: function))
        let unreadable =
            "propertiesMapping() must return a dictionary literal of string literals, because the schema is read at build time; write `override class func propertiesMapping() -> [String: String] { [\"swiftName\": \"storedName\"] }`"
        guard let statements = function.body?.statements, statements.count == 1, let item = statements.first?.item
        else {
            declaration.problem = unreadable
            return declaration
        }
        var expression: ExprSyntax?
        if let returned = item.as(ReturnStmtSyntax.self) {
            expression = returned.expression
        } else {
            expression = item.as(ExprSyntax.self)
        }
        guard let dictionary = expression?.as(DictionaryExprSyntax.self) else {
            declaration.problem = unreadable
            return declaration
        }
        if case .elements(let elements) = dictionary.content {
            for element in elements {
                guard let key = Self.stringLiteral(element.key), let value = Self.stringLiteral(element.value) else {
                    declaration.problem = unreadable
                    return declaration
                }
                declaration.entries.append((key, value, location(of: element)))
            }
        }
        return declaration
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
                        problems.append(
                            "'\(label):' must be the literal `true` or `false`, because the schema is read at build time"
                        )
                        continue
                    }
                    let value = literal.literal.tokenKind == .keyword(.true)
                    if label == "primaryKey" { attributes.primaryKey = value } else { attributes.indexed = value }
                case "originProperty", "originalName":
                    guard let text = Self.stringLiteral(argument.expression) else {
                        problems.append(
                            "'\(label):' must be a string literal such as \"name\", because the schema is read at build time"
                        )
                        continue
                    }
                    if label == "originProperty" {
                        attributes.originProperty = text
                    } else {
                        attributes.originalName = text
                    }
                case "wrappedValue":
                    continue
                default:
                    problems.append(
                        "'@Persisted' has no argument '\(label.isEmpty ? "_" : label)'; use primaryKey:, indexed:, originProperty: or originalName:"
                    )
                }
            }
        }
        if variable.bindingSpecifier.tokenKind != .keyword(.var) {
            problems.append("'@Persisted' properties must be declared with 'var'; write `@Persisted var`")
        }
        if variable.modifiers.contains(where: { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }) {
            problems.append("'@Persisted' cannot be used on a static property; remove 'static'")
        }
        if let modifier = variable.modifiers.first(where: {
            [.keyword(.private), .keyword(.fileprivate)].contains($0.name.tokenKind)
        }) {
            problems.append(
                "'@Persisted' properties cannot be '\(modifier.name.text)', because the generated accessors in another file read and write them; remove '\(modifier.name.text)' (or use 'internal')"
            )
        }
        if variable.bindings.count > 1 {
            problems.append("declare one '@Persisted' property per 'var'")
        }
        var result: [PropertyDeclaration] = []
        for binding in variable.bindings {
            let name =
                binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.trimmingCharacters(in: ["`"])
                ?? binding.pattern.trimmedDescription
            var bindingProblems = problems
            var hasObservers = false
            if let block = binding.accessorBlock {
                // `willSet`/`didSet` observe a stored property; anything else makes it computed.
                if case .accessors(let accessors) = block.accessors, !accessors.isEmpty,
                    accessors.allSatisfy({
                        [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
                    })
                {
                    hasObservers = true
                } else {
                    bindingProblems.append(
                        "'@Persisted' cannot be used on a computed property; store the value with `@Persisted var \(name): Type`"
                    )
                }
            }
            let declaredType = binding.typeAnnotation.map { Self.typeExpression($0.type) }
            let initializer = binding.initializer?.value
            result.append(
                PropertyDeclaration(
                    name: name,
                    declaredType: declaredType,
                    defaultValue: initializer?.trimmedDescription,
                    inferredType: initializer.flatMap(Self.inferType),
                    attributes: attributes,
                    location: declLocation,
                    syntaxProblems: bindingProblems,
                    hasObservers: hasObservers))
        }
        return result
    }

    // MARK: Helpers

    private func location(of node: some SyntaxProtocol) -> SourceLocation {
        let loc = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourceLocation(file: fileName, line: loc.line, column: loc.column)
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

    /// The name of the class `node` derives from, when it derives from one by name (the first
    /// inherited type; a protocol there is harmless: no model has its name).
    /// Whether the class's inheritance clause names `Codable` or `Encodable`.
    static func declaresEncodable(_ node: ClassDeclSyntax) -> Bool {
        let names = node.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        return names.contains { ["Codable", "Encodable", "Swift.Codable", "Swift.Encodable"].contains($0) }
    }

    /// Whether the class body declares `encode(to:)` itself.
    static func writesEncode(_ node: ClassDeclSyntax) -> Bool {
        node.memberBlock.members.contains { member in
            guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode" else {
                return false
            }
            return function.signature.parameterClause.parameters.first?.firstName.text == "to"
        }
    }

    static func superclassName(of node: ClassDeclSyntax) -> String? {
        guard let first = node.inheritanceClause?.inheritedTypes.first,
            case .named(let name, []) = typeExpression(first.type)
        else { return nil }
        return name
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
    package static func typeExpression(_ type: TypeSyntax) -> TypeExpression {
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
            case .named(let name, _)? = typeNamed(by: specialized.expression, dropLastMember: false)
        {
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
            member.declName.baseName.text.first?.isUppercase == true
        {
            // A qualified type such as `Foundation.Date`.
            return .named(member.declName.baseName.text, [])
        }
        return nil
    }
}
