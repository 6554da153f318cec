import Foundation

/// The generator's two jobs, as functions of their inputs (the executable only does file I/O):
/// `generate` for the build plugin and `update` for the command plugin.
package enum SchemaCompiler {
    /// What a run produced: the file to write (nil on error) and the diagnostics to print.
    package struct Outcome: Sendable {
        package var output: String?
        package var diagnostics: [SchemaDiagnostic]
        package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The command a user runs to record the current schema of `targetName`.
    package static func updateCommand(targetName: String) -> String {
        "swift package --allow-writing-to-package-directory strata-schema update --target \(targetName)"
    }

    /// Checks the models of one target and generates its file.
    ///
    /// Without a history file the schema version is 0 and there are no migrations, so a new user
    /// who only adds the plugin builds cleanly. With one, the generated schema version is the
    /// latest recorded version and the migrations are the recorded steps. Models that changed
    /// since then still build (with a warning that says what to run), unless a change needs a
    /// decision: a property or class gone and another new could be a rename. Integer literals
    /// given as `schemaVersion` must be the latest recorded version (0, the default, means it).
    package static func generate(
        targetName: String, inputs: [DeclarationCollection.Input],
        history: SchemaHistory?, historyDisplayPath: String
    ) -> Outcome {
        let collected = DeclarationCollection.collect(inputs)
        let (schema, diagnostics) = SchemaResolver.resolve(collected)
        guard let schema else { return Outcome(output: nil, diagnostics: diagnostics) }
        var all = diagnostics
        var migrations: [SchemaEmitter.Migration] = []
        var version = 0
        var pending: [String] = []
        if let history, let latest = history.latest {
            let command = updateCommand(targetName: targetName)
            for literal in collected.schemaVersionLiterals where literal.value != 0 && literal.value != latest.version {
                let fix =
                    literal.value < latest.version
                    ? "write `schemaVersion: \(latest.version)`, or leave schemaVersion out (0 means the latest recorded version)"
                    : "run `\(command) --schema-version \(literal.value)` to record the models as version \(literal.value) (also for a migration that only changes data), or write `schemaVersion: \(latest.version)`"
                all.append(
                    SchemaDiagnostic(
                        at: literal.location,
                        "schemaVersion \(literal.value) is not the latest version recorded in \(SchemaHistory.fileName) (\(latest.version)), so the migration steps the history records would not match it; \(fix)"
                    ))
            }
            // The history records what storage depends on: stored names (propertiesMapping()).
            let changes = history.differences(from: latest, to: schema.withStoredNames)
            if !changes.isEmpty {
                let decisions = history.decisionsNeeded(
                    from: latest, to: schema.withStoredNames, targetName: targetName)
                if !decisions.isEmpty { return Outcome(output: nil, diagnostics: all + decisions) }
                all.append(
                    SchemaDiagnostic(
                        .warning, at: SourceLocation(file: historyDisplayPath, line: 1, column: 1),
                        "the models of target '\(targetName)' changed since schema version \(latest.version) was recorded in \(SchemaHistory.fileName) (\(changes.joined(separator: "; "))); run `\(command)` to record version \(latest.version + 1) and commit \(SchemaHistory.fileName). Until then the app runs with version \(latest.version): added classes and properties work, and opening a file that needs a migration for the other changes throws schemaMismatch"
                    ))
                pending = changes
            }
            version = latest.version
            for (old, new) in zip(history.versions, history.versions.dropFirst()) {
                migrations.append(
                    .init(
                        fromVersion: old.version, toVersion: new.version,
                        steps: SchemaHistory.migrationSteps(from: old, to: new)))
            }
        }
        if all.contains(where: { $0.severity == .error }) { return Outcome(output: nil, diagnostics: all) }
        let names = inputs.map { ($0.displayPath as NSString).lastPathComponent }
        return Outcome(
            output: SchemaEmitter.emit(
                schema, sourceFileNames: names, schemaVersion: version, migrations: migrations,
                pendingChanges: pending,
                recordCommand: history?.latest == nil ? nil : updateCommand(targetName: targetName)),
            diagnostics: all)
    }

    /// Records the current models as a new history version when they differ from the latest.
    /// - Parameters:
    ///   - typeRenames: `Old=New` pairs, old name by new name: classes renamed since the latest version.
    ///   - version: the new version's number (greater than the latest), recorded even without changes.
    /// - Returns: the updated history (nil on error), whether a version was added, and diagnostics.
    package static func update(
        inputs: [DeclarationCollection.Input], history: SchemaHistory?,
        typeRenames: [String: String] = [:], version: Int? = nil, historyDisplayPath: String = SchemaHistory.fileName
    )
        -> (history: SchemaHistory?, added: Bool, diagnostics: [SchemaDiagnostic])
    {
        let (schema, diagnostics) = SchemaResolver.resolve(DeclarationCollection.collect(inputs))
        guard let schema else { return (nil, false, diagnostics) }
        var history = history ?? SchemaHistory()
        let here = SourceLocation(file: historyDisplayPath, line: 1, column: 1)
        var problems: [SchemaDiagnostic] = []
        let latest = history.latest?.version ?? 0
        if let version, version <= latest {
            problems.append(
                SchemaDiagnostic(
                    at: here, "--schema-version \(version) must be greater than the latest recorded version (\(latest))"
                ))
        }
        for (new, old) in typeRenames.sorted(by: { $0.key < $1.key }) {
            if !(history.latest?.types.contains { $0.name == old } ?? false) {
                problems.append(
                    SchemaDiagnostic(at: here, "--rename-type \(old)=\(new): version \(latest) has no class '\(old)'"))
            }
            if !schema.models.contains(where: { $0.name == new }) {
                problems.append(
                    SchemaDiagnostic(at: here, "--rename-type \(old)=\(new): the models have no class '\(new)'"))
            }
        }
        guard problems.isEmpty else { return (nil, false, diagnostics + problems) }
        let added = history.record(schema.withStoredNames, typeRenames: typeRenames, version: version)
        return (history, added, diagnostics)
    }
}
