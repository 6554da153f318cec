import SwiftParser
import SwiftSyntax

/// Parses source files and runs both collectors over each.
package enum DeclarationCollection {
    /// One file to read: its text and the name used in diagnostics.
    package struct Input: Sendable {
        package var displayPath: String
        package var source: String
        package init(displayPath: String, source: String) {
            self.displayPath = displayPath
            self.source = source
        }
    }

    /// Collects the declarations of all `inputs`, in the order given.
    package static func collect(_ inputs: [Input]) -> CollectedDeclarations {
        var result = CollectedDeclarations()
        for input in inputs {
            let tree = Parser.parse(source: input.source)
            let classes = ModelCollector.collect(in: tree, fileName: input.displayPath)
            result.models += classes.models
            result.otherClasses += classes.candidates
            result.diagnostics += classes.diagnostics
            result.enums += PersistableEnumCollector.collect(in: tree, fileName: input.displayPath)
            result.customPersistables += CustomPersistableCollector.collect(in: tree, fileName: input.displayPath)
            let projections = ProjectionCollector.collect(in: tree, fileName: input.displayPath)
            result.projections += projections.projections
            result.diagnostics += projections.diagnostics
            result.schemaVersionLiterals += SchemaVersionLiteralCollector.collect(in: tree, fileName: input.displayPath)
        }
        return result
    }
}
