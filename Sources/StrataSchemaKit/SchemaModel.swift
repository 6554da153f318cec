// The model of the schema compiler: what the collectors find in the sources (declarations, still
// close to the syntax) and what the resolver turns them into (a checked schema). The emitters and
// the history code only ever read these types; nothing here knows about SwiftSyntax.

/// A position in a source file, 1-based, as compilers print it.
public struct SourceLocation: Hashable, Sendable, Comparable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// A user mistake found in the models, reported as `file:line:column: error: message`.
public struct SchemaDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var location: SourceLocation
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity = .error, at location: SourceLocation, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    /// The form compilers use, so SwiftPM and editors link it to the declaration.
    public var description: String {
        "\(location.file):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
}

// MARK: - Declarations (as written)

/// Which base class a model derives from.
public enum ModelKind: String, Sendable, Codable {
    case object, embedded, asymmetric

    var baseClassName: String {
        switch self {
        case .object: "Object"
        case .embedded: "EmbeddedObject"
        case .asymmetric: "AsymmetricObject"
        }
    }
}

/// A type written in a declaration, reduced to the shapes the schema cares about.
public indirect enum TypeExpression: Hashable, Sendable, CustomStringConvertible {
    /// `Name` or `Name<Arguments>` (module-qualified names keep only the last component).
    case named(String, [TypeExpression])
    /// `T?`, `T!` or `Optional<T>`.
    case optional(TypeExpression)
    /// Anything else (tuples, functions, arrays `[T]`, dictionaries, `some P`, ...), kept as text.
    case unsupported(String)

    public var description: String {
        switch self {
        case .named(let name, let args):
            args.isEmpty ? name : "\(name)<\(args.map(\.description).joined(separator: ", "))>"
        case .optional(let wrapped): "\(wrapped)?"
        case .unsupported(let text): text
        }
    }
}

/// What `@Persisted(...)` says, argument by argument.
public struct PersistedAttributes: Hashable, Sendable {
    public var primaryKey = false
    public var indexed = false
    public var originProperty: String?
    public var originalName: String?
}

/// One `@Persisted var` as written.
public struct PropertyDeclaration: Hashable, Sendable {
    public var name: String
    public var declaredType: TypeExpression?
    /// The initializer's source text, e.g. `""` or `Date()`.
    public var defaultValue: String?
    /// The type inferred from `defaultValue` when there is no annotation.
    public var inferredType: TypeExpression?
    public var attributes: PersistedAttributes
    public var location: SourceLocation
    /// Problems the collector saw while reading the declaration (for example `let`, `static`, no type).
    public var syntaxProblems: [String] = []
    /// Whether the declaration has `willSet`/`didSet` observers (they run when Swift code assigns
    /// the property, not when Strata fills in an object from stored or given values).
    public var hasObservers = false
}

/// `override class func propertiesMapping() -> [String: String]` as written: Swift property
/// name -> the name the property is stored under.
public struct PropertiesMappingDeclaration: Hashable, Sendable {
    public var entries: [(swiftName: String, storedName: String, location: SourceLocation)]
    public var location: SourceLocation
    /// Why the body could not be read (it must be a dictionary literal of string literals).
    public var problem: String?

    public static func == (a: Self, b: Self) -> Bool {
        a.location == b.location && a.problem == b.problem
            && a.entries.map { [$0.swiftName, $0.storedName] } == b.entries.map { [$0.swiftName, $0.storedName] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        for entry in entries { hasher.combine(entry.swiftName); hasher.combine(entry.storedName) }
    }
}

/// A class deriving from `Object`, `EmbeddedObject` or `AsymmetricObject`, or (a candidate)
/// from another class, which makes it a model when that class is one (a subclass of a model).
public struct ModelDeclaration: Hashable, Sendable {
    /// The class's own name: the stored class name (`className()`), also for a nested class.
    public var name: String
    /// The name Swift code outside the class spells it with: `Outer.Inner` for a nested class.
    public var qualifiedName: String
    /// The base class's kind; for a subclass of a model, the kind of the model it derives from
    /// (set by the resolver).
    public var kind: ModelKind
    /// For a class deriving from another class than the three bases: that class's name, as
    /// written (module qualifiers dropped).
    public var superclassName: String?
    public var isFinal: Bool
    /// `public` (also for `open`), `package`, or nil for internal.
    public var accessLevel: String?
    public var properties: [PropertyDeclaration]
    public var location: SourceLocation
    /// `propertiesMapping()`, when the class declares it.
    public var propertiesMapping: PropertiesMappingDeclaration?
    /// Why the generated file cannot reach the class where it is declared (in a function, a
    /// generic or private type, or private itself), reported if the class is a model.
    public var placementProblem: String?
    /// RealmSwift legacy declarations in the class body (`let dogs = List<Dog>()`, ...),
    /// reported if the class is a model.
    public var legacyDeclarations: [SchemaDiagnostic] = []
}

/// An enum conforming to `PersistableEnum`.
public struct EnumDeclaration: Hashable, Sendable {
    public var name: String
    /// The first inherited type when it is a raw type (`Int`, `String`, ...), else nil.
    public var rawType: String?
    public var caseCount: Int
    public var location: SourceLocation
}

/// Everything the collectors found in one target.
public struct CollectedDeclarations: Sendable {
    public var models: [ModelDeclaration] = []
    /// Classes deriving from a class other than Object, EmbeddedObject or AsymmetricObject:
    /// models when that class is a model of the target (the resolver decides).
    public var otherClasses: [ModelDeclaration] = []
    public var enums: [EnumDeclaration] = []
    public var diagnostics: [SchemaDiagnostic] = []
    /// Integer literals given as a schema version (`schemaVersion: 2`, `config.schemaVersion = 2`),
    /// checked against the schema history.
    public var schemaVersionLiterals: [SchemaVersionLiteral] = []
    public init() {}
}

/// An integer literal the sources give as `Realm.Configuration.schemaVersion`.
public struct SchemaVersionLiteral: Hashable, Sendable {
    public var value: Int
    public var location: SourceLocation
}

// MARK: - Resolved schema

/// The storage type of a property, with Realm's names (all integer widths are `int`).
public enum StorageType: String, Sendable, Codable, CaseIterable {
    case bool, int, float, double, string, data, date, decimal128, objectId, uuid, any, object, linkingObjects
}

/// The collection a property is, if any.
public enum CollectionKind: String, Sendable, Codable {
    case none, list, set, map
}

/// A checked `@Persisted` property.
public struct ResolvedProperty: Hashable, Sendable {
    /// The Swift name (what queries, key paths and `objectSchema` use).
    public var name: String
    /// The name the property is stored under: `name`, unless `propertiesMapping()` maps it.
    public var columnName: String
    public var type: StorageType
    /// The Swift type of the property as the generated code must spell it, e.g. `List<Dog>`.
    public var swiftType: String
    /// The Swift type of one value (the element for collections), e.g. `Int8`, `Dog`, `Status`.
    public var valueSwiftType: String
    public var isOptional: Bool
    public var collection: CollectionKind
    public var objectClassName: String?
    public var linkOriginPropertyName: String?
    /// The `PersistableEnum` type, when the value is one (stored as its raw value).
    public var enumTypeName: String?
    public var isPrimaryKey: Bool
    public var isIndexed: Bool
    public var defaultValue: String?
    public var originalName: String?
    public var location: SourceLocation
    /// Whether the declaration has `willSet`/`didSet` observers.
    public var hasObservers = false
    /// The class that declares the property (a superclass's, for an inherited property), as
    /// Swift code spells it.
    public var declaringClass: String
}

/// A checked model class.
public struct ResolvedModel: Hashable, Sendable {
    public var name: String
    /// How Swift code outside the class spells it (`Outer.Inner` for a nested class).
    public var qualifiedName: String
    public var kind: ModelKind
    /// The model class it derives from, for a subclass of a model (its properties come first).
    public var superclass: String?
    public var accessLevel: String?
    public var properties: [ResolvedProperty]
    public var location: SourceLocation
    public var primaryKey: String? { properties.first(where: \.isPrimaryKey)?.name }
}

/// The checked schema of one target, in declaration order (files sorted by name).
public struct ResolvedSchema: Sendable {
    public var models: [ResolvedModel]
    public var enums: [EnumDeclaration]

    /// The models with each property named by its stored name: what the schema history records
    /// (storage follows the stored names; `propertiesMapping()` only changes the Swift side).
    public var withStoredNames: ResolvedSchema {
        var copy = self
        for m in copy.models.indices {
            for p in copy.models[m].properties.indices {
                copy.models[m].properties[p].name = copy.models[m].properties[p].columnName
            }
        }
        return copy
    }

    /// The models deriving (directly or not) from model `name`, in declaration order.
    public func subclasses(of name: String) -> [ResolvedModel] {
        var result: [ResolvedModel] = []
        var frontier: Set<String> = [name]
        var changed = true
        while changed {
            changed = false
            for model in models where model.superclass.map(frontier.contains) == true && !frontier.contains(model.name) {
                frontier.insert(model.name)
                changed = true
            }
        }
        for model in models where model.name != name && frontier.contains(model.name) { result.append(model) }
        return result
    }
}
