/// Checks collected declarations against what Strata can store and turns them into a
/// `ResolvedSchema`. Every rejection is a diagnostic at the declaration that says what to write.
package enum SchemaResolver {
    /// Value types a property (or a collection element) can have, with their storage type.
    static let scalarTypes: [String: StorageType] = [
        "Bool": .bool, "Int": .int, "Int8": .int, "Int16": .int, "Int32": .int, "Int64": .int,
        "Float": .float, "Double": .double, "String": .string, "Data": .data, "Date": .date,
        "Decimal128": .decimal128, "ObjectId": .objectId, "UUID": .uuid, "AnyRealmValue": .any,
        "URL": .string,
    ]
    static let supportedTypesText =
        "Bool, Int, Int8, Int16, Int32, Int64, Float, Double, String, Data, Date, Decimal128, ObjectId, UUID, AnyRealmValue, URL, a CustomPersistable type, an optional of these, List<T>, MutableSet<T>, Map<String, T>, LinkingObjects<T>, a model class declared in this target (as `T?`), or a PersistableEnum"
    static let primaryKeyStorage: Set<StorageType> = [.int, .string, .objectId, .uuid]
    static let indexableStorage: Set<StorageType> = [.bool, .int, .string, .objectId, .uuid, .date, .any]

    /// Raw types a `PersistableEnum` may have, with the storage type of its values.
    static let enumRawTypes: [String: StorageType] = [
        "Int": .int, "Int8": .int, "Int16": .int, "Int32": .int, "Int64": .int,
        "String": .string, "Float": .float, "Double": .double,
    ]

    /// Resolves `declarations`; the schema is nil when there is at least one error.
    package static func resolve(
        _ declarations: CollectedDeclarations
    ) -> (schema: ResolvedSchema?, diagnostics: [SchemaDiagnostic]) {
        var diagnostics = declarations.diagnostics
        // Subclasses of models are models (RealmSwift: each is a class of its own, with the
        // superclass's properties first); a class deriving from a subclass too.
        var declared = declarations.models
        var candidates = declarations.otherClasses
        var known = Set(declared.map(\.name))
        var promoted = true
        while promoted {
            promoted = false
            candidates.removeAll { candidate in
                guard let superclass = candidate.superclassName, known.contains(superclass) else { return false }
                declared.append(candidate)
                known.insert(candidate.name)
                promoted = true
                return true
            }
        }
        declared.sort { $0.location < $1.location }
        var modelsByName: [String: ModelDeclaration] = [:]
        for model in declared {
            if let first = modelsByName[model.name] {
                let names =
                    first.qualifiedName == model.qualifiedName
                    ? "" : " ('\(first.qualifiedName)' and '\(model.qualifiedName)' are both stored as '\(model.name)')"
                diagnostics.append(
                    SchemaDiagnostic(
                        at: model.location,
                        "model class '\(model.name)' is declared twice (first at \(first.location.file):\(first.location.line))\(names); rename one of them"
                    ))
                continue
            }
            modelsByName[model.name] = model
            if let problem = model.placementProblem {
                diagnostics.append(SchemaDiagnostic(at: model.location, problem))
            }
            diagnostics += model.legacyDeclarations
        }
        // A subclass has the kind of the model class it derives from.
        func root(of model: ModelDeclaration) -> ModelDeclaration {
            var current = model
            var seen: Set<String> = [model.name]
            while let s = current.superclassName, let parent = modelsByName[s], seen.insert(parent.name).inserted {
                current = parent
            }
            return current
        }
        let inheritedKinds = modelsByName.values.filter { $0.superclassName != nil }.map {
            ($0.name, root(of: $0).kind)
        }
        for (name, kind) in inheritedKinds { modelsByName[name]?.kind = kind }
        var enumsByName: [String: EnumDeclaration] = [:]
        for declaration in declarations.enums {
            enumsByName[declaration.name] = declaration
            if declaration.rawType.map({ enumRawTypes[$0] != nil }) != true {
                diagnostics.append(
                    SchemaDiagnostic(
                        at: declaration.location,
                        "PersistableEnum '\(declaration.name)' needs an Int, String, Float or Double raw type; write `enum \(declaration.name): String, PersistableEnum` (or `: Int`, `: Double`, ...)"
                    ))
            } else if declaration.caseCount == 0 {
                diagnostics.append(
                    SchemaDiagnostic(
                        at: declaration.location,
                        "PersistableEnum '\(declaration.name)' has no cases; add at least one `case`, its first case is the default value"
                    ))
            }
        }
        var context = Context(models: modelsByName, enums: enumsByName)
        for custom in declarations.customPersistables where context.customs[custom.name] == nil {
            context.customs[custom.name] = custom
        }
        // Superclasses first: a subclass starts from its superclass's properties.
        let ordered = declared.filter { modelsByName[$0.name]?.location == $0.location }.map { modelsByName[$0.name]! }
        func depth(_ model: ModelDeclaration) -> Int {
            var d = 0
            var current = model
            var seen: Set<String> = [model.name]
            while let s = current.superclassName, let parent = modelsByName[s], seen.insert(parent.name).inserted {
                d += 1; current = parent
            }
            return d
        }
        var resolvedByName: [String: ResolvedModel] = [:]
        for model in ordered.sorted(by: { (depth($0), $0.location) < (depth($1), $1.location) }) {
            let inherited = model.superclassName.flatMap { resolvedByName[$0] }
            var properties: [ResolvedProperty] = inherited?.properties ?? []
            var primaryKeySeen = inherited?.primaryKey
            let mapping = nearestMapping(of: model, in: modelsByName)
            for declaration in model.properties {
                guard var property = context.resolve(declaration, in: model, diagnostics: &diagnostics) else {
                    continue
                }
                if property.isPrimaryKey {
                    if let first = primaryKeySeen {
                        diagnostics.append(
                            SchemaDiagnostic(
                                at: declaration.location,
                                "'\(model.name)' already has the primary key '\(first)'; a model has at most one, write `@Persisted var \(property.name): \(property.swiftType)` (or `@Persisted(indexed: true)` to look it up fast)"
                            ))
                        continue
                    }
                    primaryKeySeen = property.name
                }
                if let stored = mapping?.entries.last(where: { $0.swiftName == property.name })?.storedName {
                    property.columnName = stored
                }
                property.declaringClass = model.qualifiedName
                properties.append(property)
            }
            // Two properties stored under one name would share a column. (Problems among
            // inherited properties were reported for the superclass.)
            var byColumn: [String: String] = [:]
            for (index, property) in properties.enumerated() {
                let own = index >= (inherited?.properties.count ?? 0)
                if !own {
                    byColumn[property.columnName] = property.name
                } else if property.columnName.isEmpty {
                    diagnostics.append(
                        SchemaDiagnostic(
                            at: mapping?.location ?? property.location,
                            "propertiesMapping() maps '\(property.name)' to an empty name; give it a stored name, or remove the entry"
                        ))
                } else if let other = byColumn[property.columnName] {
                    diagnostics.append(
                        SchemaDiagnostic(
                            at: mapping?.location ?? property.location,
                            "'\(model.name).\(property.name)' would be stored as '\(property.columnName)', the stored name of '\(other)' too; give each property its own name in propertiesMapping()"
                        ))
                } else {
                    byColumn[property.columnName] = property.name
                }
            }
            resolvedByName[model.name] = ResolvedModel(
                name: model.name, qualifiedName: model.qualifiedName, kind: model.kind,
                superclass: model.superclassName.flatMap { modelsByName[$0]?.name },
                accessLevel: model.accessLevel, properties: properties, location: model.location,
                emitsEncode: model.needsGeneratedEncode)
        }
        diagnostics += mappingDiagnostics(modelsByName)
        let resolved = ordered.compactMap { resolvedByName[$0.name] }
        // Backlinks are checked once every model is known.
        for model in resolved {
            for property in model.properties where property.type == .linkingObjects {
                guard let originType = property.objectClassName, let origin = property.linkOriginPropertyName,
                    let target = resolvedByName[originType]
                else { continue }
                let candidates = target.properties.filter { $0.type == .object && $0.objectClassName == model.name }
                if !candidates.contains(where: { $0.name == origin }) {
                    let hint =
                        candidates.isEmpty
                        ? "add a link to it, e.g. `@Persisted var \(lowerFirst(model.name))s: List<\(model.name)>` in \(originType)"
                        : "write `@Persisted(originProperty: \"\(candidates[0].name)\")`"
                    diagnostics.append(
                        SchemaDiagnostic(
                            at: property.location,
                            "LinkingObjects '\(property.name)' names the origin property '\(origin)', but \(originType) has no property '\(origin)' linking to \(model.name); \(hint)"
                        ))
                }
            }
        }
        let projections = ProjectionResolver.resolve(declarations.projections, models: resolved)
        diagnostics += projections.diagnostics
        diagnostics.sort { ($0.location, $0.message) < ($1.location, $1.message) }
        let hasError = diagnostics.contains { $0.severity == .error }
        return (
            hasError
                ? nil
                : ResolvedSchema(models: resolved, enums: declarations.enums, projections: projections.projections),
            diagnostics
        )
    }

    static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }

    /// The `propertiesMapping()` that applies to the properties `model` declares: its own, or the
    /// one it inherits (RealmSwift asks each class of the hierarchy for its own properties).
    static func nearestMapping(
        of model: ModelDeclaration, in models: [String: ModelDeclaration]
    ) -> PropertiesMappingDeclaration? {
        var current: ModelDeclaration? = model
        var seen: Set<String> = []
        while let c = current, seen.insert(c.name).inserted {
            if let mapping = c.propertiesMapping { return mapping }
            current = c.superclassName.flatMap { models[$0] }
        }
        return nil
    }

    /// Unreadable `propertiesMapping()` bodies (errors) and entries that name no property of the
    /// classes they apply to (warnings: RealmSwift ignores them).
    static func mappingDiagnostics(_ models: [String: ModelDeclaration]) -> [SchemaDiagnostic] {
        var result: [SchemaDiagnostic] = []
        for model in models.values {
            guard let mapping = model.propertiesMapping else { continue }
            if let problem = mapping.problem {
                result.append(SchemaDiagnostic(at: mapping.location, problem))
                continue
            }
            let users = models.values.filter { nearestMapping(of: $0, in: models)?.location == mapping.location }
            let names = Set(users.flatMap { $0.properties.map(\.name) })
            for entry in mapping.entries where !names.contains(entry.swiftName) {
                result.append(
                    SchemaDiagnostic(
                        .warning, at: entry.location,
                        "propertiesMapping() of '\(model.name)' maps '\(entry.swiftName)', but '\(model.name)' declares no @Persisted property '\(entry.swiftName)'; the entry has no effect (check the spelling; a property a superclass declares keeps the stored name that class gives it)"
                    ))
            }
        }
        return result
    }

    /// What one value (a property, or a collection element) resolves to.
    struct ValueType {
        var type: StorageType
        var swiftType: String
        var isOptional: Bool
        var objectClassName: String?
        var enumTypeName: String?
        var objectKind: ModelKind?
        /// A `CustomPersistable` type (or `URL`), stored as its persisted type.
        var isCustom = false
    }

    struct Context {
        var models: [String: ModelDeclaration]
        var enums: [String: EnumDeclaration]
        var customs: [String: CustomPersistableDeclaration] = [:]

        func resolve(
            _ declaration: PropertyDeclaration, in model: ModelDeclaration, diagnostics: inout [SchemaDiagnostic]
        ) -> ResolvedProperty? {
            func fail(_ message: String) -> ResolvedProperty? {
                diagnostics.append(SchemaDiagnostic(at: declaration.location, message))
                return nil
            }
            if let problem = declaration.syntaxProblems.first { return fail(problem) }
            let name = declaration.name
            guard let type = declaration.declaredType ?? declaration.inferredType else {
                if let value = declaration.defaultValue {
                    return fail(
                        "cannot tell the type of '\(name)' from its default value `\(value)`; write the type: `@Persisted var \(name): Type = \(value)`"
                    )
                }
                return fail("'\(name)' needs a type: write `@Persisted var \(name): Type` (for example `String`)")
            }
            let attributes = declaration.attributes
            var property = ResolvedProperty(
                name: name, columnName: name, type: .int, swiftType: type.description, valueSwiftType: type.description,
                isOptional: false,
                collection: .none, objectClassName: nil, linkOriginPropertyName: nil, enumTypeName: nil,
                isPrimaryKey: attributes.primaryKey, isIndexed: attributes.indexed,
                defaultValue: declaration.defaultValue,
                originalName: attributes.originalName, location: declaration.location,
                hasObservers: declaration.hasObservers,
                declaringClass: model.qualifiedName)

            var element: ValueType
            switch type {
            case .named("List", let arguments), .named("MutableSet", let arguments):
                let isList = { if case .named("List", _) = type { return true } else { return false } }()
                let collectionName = isList ? "List" : "MutableSet"
                guard arguments.count == 1 else {
                    return fail("write `\(collectionName)<Element>` with one element type")
                }
                property.collection = isList ? .list : .set
                switch value(arguments[0], where: "\(collectionName) element") {
                case .failure(let message): return fail(message.text)
                case .success(let value):
                    if value.type == .object && value.isOptional {
                        return fail(
                            "a \(collectionName) cannot hold optional objects; write `\(collectionName)<\(value.objectClassName ?? "T")>`"
                        )
                    }
                    if !isList && value.objectKind == .embedded {
                        return fail("a MutableSet cannot hold embedded objects; write `List<\(value.swiftType)>`")
                    }
                    element = value
                }
            case .named("Map", let arguments):
                guard arguments.count == 2 else { return fail("write `Map<String, Value>`") }
                guard arguments[0] == .named("String", []) else {
                    return fail("Map keys must be String; write `Map<String, \(arguments[1])>`")
                }
                property.collection = .map
                switch value(arguments[1], where: "Map value") {
                case .failure(let message): return fail(message.text)
                case .success(let value):
                    if value.type == .object && !value.isOptional {
                        return fail(
                            "a Map holds objects as optionals (a deleted object leaves nil); write `Map<String, \(value.swiftType)?>`"
                        )
                    }
                    element = value
                }
            case .named("LinkingObjects", let arguments):
                guard arguments.count == 1, case .named(let originType, []) = arguments[0],
                    let origin = models[originType]
                else {
                    return fail(
                        "LinkingObjects must name a model class of this target: write `@Persisted(originProperty: \"property\") var \(name): LinkingObjects<Model>`"
                    )
                }
                guard origin.kind != .embedded else {
                    return fail(
                        "LinkingObjects cannot point from an embedded object ('\(originType)'); an embedded object has exactly one owner, which it can reach through the parent's property"
                    )
                }
                guard let originProperty = attributes.originProperty else {
                    return fail(
                        "LinkingObjects '\(name)' needs its origin property: write `@Persisted(originProperty: \"\(SchemaResolver.lowerFirst(model.name))s\") var \(name): LinkingObjects<\(originType)>`"
                    )
                }
                if declaration.defaultValue != nil {
                    return fail(
                        "LinkingObjects '\(name)' cannot have a default value; write `@Persisted(originProperty: \"\(originProperty)\") var \(name): LinkingObjects<\(originType)>`"
                    )
                }
                property.type = .linkingObjects
                property.objectClassName = originType
                property.linkOriginPropertyName = originProperty
                property.valueSwiftType = originType
                if attributes.primaryKey || attributes.indexed {
                    return fail("LinkingObjects '\(name)' cannot be a primary key or indexed; remove the argument")
                }
                return property
            default:
                switch value(type, where: "property type") {
                case .failure(let message): return fail(message.text)
                case .success(let value):
                    if value.type == .object && !value.isOptional {
                        return fail(
                            "a to-one link must be optional; write `@Persisted var \(name): \(value.swiftType)?`")
                    }
                    element = value
                }
            }
            if attributes.originProperty != nil {
                return fail(
                    "'originProperty:' only applies to LinkingObjects; remove it, or write `var \(name): LinkingObjects<Model>`"
                )
            }
            property.type = element.type
            property.valueSwiftType = element.swiftType
            property.isOptional = element.isOptional
            property.objectClassName = element.objectClassName
            property.enumTypeName = element.enumTypeName
            if element.objectKind == .asymmetric {
                return fail(
                    "objects cannot link to the asymmetric object '\(element.objectClassName ?? "")'; asymmetric objects are write-only, store its primary key instead"
                )
            }
            if element.isCustom && (property.isPrimaryKey || property.isIndexed) {
                return fail(
                    "'\(name)' has the custom type \(element.swiftType), which cannot be a primary key or indexed; store its persisted value in a property of its own type for that"
                )
            }
            if property.isPrimaryKey {
                if model.kind == .embedded {
                    return fail(
                        "embedded object '\(model.name)' cannot have a primary key; write `@Persisted var \(name): \(property.swiftType)`"
                    )
                }
                if property.collection != .none || !primaryKeyStorage.contains(property.type) {
                    return fail(
                        "primary key '\(name)' has type \(property.swiftType); a primary key must be Int, String, ObjectId, UUID or a PersistableEnum with Int or String raw values (optional allowed), e.g. `@Persisted(primaryKey: true) var \(name): ObjectId`"
                    )
                }
            }
            if property.isIndexed && (property.collection != .none || !indexableStorage.contains(property.type)) {
                return fail(
                    "'\(name)' of type \(property.swiftType) cannot be indexed; only Bool, Int, String, ObjectId, UUID, Date, AnyRealmValue and PersistableEnum properties can, remove `indexed: true`"
                )
            }
            return property
        }

        /// Resolves a value type: a scalar, an optional scalar, an enum, or `Model?`/`Model`.
        func value(_ type: TypeExpression, where position: String) -> Result<ValueType, Message> {
            var isOptional = false
            var base = type
            if case .optional(let wrapped) = type {
                isOptional = true
                base = wrapped
                if case .optional = wrapped {
                    return .failure(Message("'\(type)' is a double optional; write `\(wrapped)`"))
                }
            }
            switch base {
            case .named(let name, []):
                if name == "AnyRealmValue" && isOptional {
                    return .failure(Message("AnyRealmValue already holds `.none`; write `AnyRealmValue` without `?`"))
                }
                if let storage = scalarTypes[name] {
                    return .success(
                        ValueType(
                            type: storage, swiftType: type.description, isOptional: isOptional, isCustom: name == "URL")
                    )
                }
                if let model = models[name] {
                    return .success(
                        ValueType(
                            type: .object, swiftType: type.description, isOptional: isOptional, objectClassName: name,
                            objectKind: model.kind))
                }
                if let custom = customs[name] {
                    var lookup = self
                    lookup.customs[name] = nil
                    switch lookup.value(custom.persistedType, where: position) {
                    case .failure(let message):
                        return .failure(
                            Message(
                                "'\(name)' is a CustomPersistable stored as '\(custom.persistedType)', which cannot be stored: \(message.text)"
                            ))
                    case .success(let persisted):
                        if persisted.type == .object || persisted.isOptional {
                            return .failure(
                                Message(
                                    "'\(name)' is a CustomPersistable stored as '\(custom.persistedType)'; Strata stores custom types as a non-optional value type (String, Int, Double, Data, ...), not as an object or an optional; map it to one of those"
                                ))
                        }
                        return .success(
                            ValueType(
                                type: persisted.type, swiftType: type.description, isOptional: isOptional,
                                isCustom: true))
                    }
                }
                if let enumDeclaration = enums[name] {
                    let storage = enumDeclaration.rawType.flatMap { enumRawTypes[$0] } ?? .int
                    return .success(
                        ValueType(
                            type: storage, swiftType: type.description, isOptional: isOptional, enumTypeName: name))
                }
                return .failure(Message(unsupportedMessage(base, position: position)))
            case .named("List", _), .named("MutableSet", _), .named("Map", _), .named("LinkingObjects", _):
                if position == "property type" {
                    return .failure(
                        Message(
                            "a collection property cannot be optional; write `\(base)` (an empty collection stands for no values)"
                        ))
                }
                return .failure(
                    Message(
                        "collections cannot be nested (\(type) as a \(position)); model the inner collection as an object with a List property"
                    ))
            default:
                return .failure(Message(unsupportedMessage(base, position: position)))
            }
        }

        func unsupportedMessage(_ type: TypeExpression, position: String) -> String {
            let suggestion: String
            switch type {
            case .named("CGFloat", _): suggestion = "use `Double`"
            case .named("UInt", _), .named("UInt8", _), .named("UInt16", _), .named("UInt32", _), .named("UInt64", _):
                suggestion = "use a signed integer type such as `Int`"
            case .named("Character", _), .named("Substring", _): suggestion = "use `String`"
            case .named("Array", let args) where args.count == 1: suggestion = "use `List<\(args[0])>`"
            case .named("Set", let args) where args.count == 1: suggestion = "use `MutableSet<\(args[0])>`"
            case .named("Dictionary", let args) where args.count == 2: suggestion = "use `Map<String, \(args[1])>`"
            case .unsupported(let text) where text.hasPrefix("[") && text.contains(":"):
                suggestion = "use `Map<String, Value>` for a dictionary"
            case .unsupported(let text) where text.hasPrefix("["):
                suggestion = "use `List<\(text.dropFirst().dropLast())>` for an array"
            case .named(let name, []):
                suggestion =
                    "if '\(name)' is a model, declare it in this target as `class \(name): Object`; if it is an enum, declare `enum \(name): String, PersistableEnum`; to store another type, declare `extension \(name): CustomPersistable` with `typealias PersistedType = String` (or another supported type) in this target; otherwise use one of \(supportedTypesText)"
            default: suggestion = "use one of \(supportedTypesText)"
            }
            return "'\(type)' is not a supported \(position); \(suggestion)"
        }
    }

    struct Message: Error { var text: String; init(_ text: String) { self.text = text } }
}
