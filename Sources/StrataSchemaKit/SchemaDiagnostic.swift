/// A user mistake found in the models, reported as `file:line:column: error: message`.
package struct SchemaDiagnostic: Hashable, Sendable, CustomStringConvertible {
    package enum Severity: String, Sendable { case error, warning }
    package var location: SourceLocation
    package var severity: Severity
    package var message: String

    package init(_ severity: Severity = .error, at location: SourceLocation, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    /// The form compilers use, so SwiftPM and editors link it to the declaration.
    package var description: String {
        "\(location.file):\(location.line):\(location.column): \(severity.rawValue): \(message)"
    }
}
