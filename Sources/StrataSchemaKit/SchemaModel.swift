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
}

/// A class deriving from `Object`, `EmbeddedObject` or `AsymmetricObject`.
public struct ModelDeclaration: Hashable, Sendable {
    public var name: String
    public var kind: ModelKind
    public var isFinal: Bool
    /// `public` (also for `open`), `package`, or nil for internal.
    public var accessLevel: String?
    public var properties: [PropertyDeclaration]
    public var location: SourceLocation
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
/// A class that is not itself a model, with the name of the class it inherits from (used to
/// report subclasses of model classes, which Strata does not support).
public struct SubclassDeclaration: Sendable, Equatable {
    public var name: String
    public var superclass: String
    public var location: SourceLocation
    public init(name: String, superclass: String, location: SourceLocation) {
        self.name = name
        self.superclass = superclass
        self.location = location
    }
}

public struct CollectedDeclarations: Sendable {
    public var models: [ModelDeclaration] = []
    /// Classes deriving from something other than Object, EmbeddedObject or AsymmetricObject.
    public var otherClasses: [SubclassDeclaration] = []
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
    public var name: String
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
}

/// A checked model class.
public struct ResolvedModel: Hashable, Sendable {
    public var name: String
    public var kind: ModelKind
    public var accessLevel: String?
    public var properties: [ResolvedProperty]
    public var location: SourceLocation
    public var primaryKey: String? { properties.first(where: \.isPrimaryKey)?.name }
}

/// The checked schema of one target, in declaration order (files sorted by name).
public struct ResolvedSchema: Sendable {
    public var models: [ResolvedModel]
    public var enums: [EnumDeclaration]
}
