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
