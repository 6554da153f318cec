/// An enum conforming to `PersistableEnum`.
package struct EnumDeclaration: Hashable, Sendable {
    package var name: String
    /// The first inherited type when it is a raw type (`Int`, `String`, ...), else nil.
    package var rawType: String?
    package var caseCount: Int
    package var location: SourceLocation
}
