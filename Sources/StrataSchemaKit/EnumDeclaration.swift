/// An enum conforming to `PersistableEnum`.
public struct EnumDeclaration: Hashable, Sendable {
    public var name: String
    /// The first inherited type when it is a raw type (`Int`, `String`, ...), else nil.
    public var rawType: String?
    public var caseCount: Int
    public var location: SourceLocation
}
