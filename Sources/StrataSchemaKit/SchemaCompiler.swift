import Foundation

/// The generator's two jobs, as functions of their inputs (the executable only does file I/O):
/// `generate` for the build plugin and `update` for the command plugin.
public enum SchemaCompiler {
    /// What a run produced: the file to write (nil on error) and the diagnostics to print.
    public struct Outcome: Sendable {
        public var output: String?
        public var diagnostics: [SchemaDiagnostic]
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The command a user runs to record the current schema of `targetName`.
    public static func updateCommand(targetName: String) -> String {
        "swift package --allow-writing-to-package-directory strata-schema update --target \(targetName)"
    }

    /// Checks the models of one target and generates its file.
    ///
    /// Without a history file the schema version is 0 and there are no migrations, so a new user
    /// who only adds the plugin builds cleanly. With one, the models must match its latest version.
    public static func generate(targetName: String, inputs: [DeclarationCollection.Input],
                                history: SchemaHistory?, historyDisplayPath: String) -> Outcome {
        let (schema, diagnostics) = SchemaResolver.resolve(DeclarationCollection.collect(inputs))
        guard let schema else { return Outcome(output: nil, diagnostics: diagnostics) }
        var all = diagnostics
        var migrations: [SchemaEmitter.Migration] = []
        var version = 0
        if let history, let latest = history.latest {
            let changes = history.differences(from: latest, to: schema)
            if !changes.isEmpty {
                all.append(SchemaDiagnostic(at: SourceLocation(file: historyDisplayPath, line: 1, column: 1),
                    "the models of target '\(targetName)' changed since schema version \(latest.version) was recorded in \(SchemaHistory.fileName) (\(changes.joined(separator: "; "))); run `\(updateCommand(targetName: targetName))` and commit \(SchemaHistory.fileName)"))
                return Outcome(output: nil, diagnostics: all)
            }
            version = latest.version
            for (old, new) in zip(history.versions, history.versions.dropFirst()) {
                migrations.append(.init(fromVersion: old.version, toVersion: new.version,
                                        steps: SchemaHistory.migrationSteps(from: old, to: new)))
            }
        }
        let names = inputs.map { ($0.displayPath as NSString).lastPathComponent }
        return Outcome(output: SchemaEmitter.emit(schema, sourceFileNames: names, schemaVersion: version, migrations: migrations),
                       diagnostics: all)
    }

    /// Records the current models as a new history version when they differ from the latest.
    /// - Returns: the updated history (nil on error), whether a version was added, and diagnostics.
    public static func update(inputs: [DeclarationCollection.Input], history: SchemaHistory?)
        -> (history: SchemaHistory?, added: Bool, diagnostics: [SchemaDiagnostic]) {
        let (schema, diagnostics) = SchemaResolver.resolve(DeclarationCollection.collect(inputs))
        guard let schema else { return (nil, false, diagnostics) }
        var history = history ?? SchemaHistory()
        let added = history.record(schema)
        return (history, added, diagnostics)
    }
}
