import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory strata-schema update [--target NAME]... [--rename-type OLD=NEW]... [--schema-version N]`
///
/// Records the current models of each target as a new version in `<target folder>/strata-schema.json`
/// (only when they changed). Without `--target` it updates every Swift target that uses StrataPlugin
/// models: those with a history file already, or whose sources mention `@Persisted`.
@main
struct StrataSchemaCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let typeRenames = extractor.extractOption(named: "rename-type")
        let schemaVersions = extractor.extractOption(named: "schema-version")
        let verb = extractor.remainingArguments.first ?? "update"
        guard verb == "update" else {
            throw CommandError(
                "unknown action '\(verb)'; run `swift package --allow-writing-to-package-directory strata-schema update [--target NAME] [--rename-type OLD=NEW] [--schema-version N]`"
            )
        }
        let allTargets = context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
        var targets: [SwiftSourceModuleTarget] = []
        if targetNames.isEmpty {
            targets = allTargets.filter { target in
                let history = target.directoryURL.appending(path: "strata-schema.json")
                if FileManager.default.fileExists(atPath: history.path) { return true }
                return target.sourceFiles(withSuffix: "swift").contains { file in
                    (try? String(contentsOf: file.url, encoding: .utf8))?.contains("@Persisted") == true
                }
            }
        } else {
            for name in targetNames {
                guard let target = allTargets.first(where: { $0.name == name }) else {
                    throw CommandError(
                        "no Swift target named '\(name)' in package '\(context.package.displayName)'; pass one of: \(allTargets.map { (t: SwiftSourceModuleTarget) -> String in t.name }.joined(separator: ", "))"
                    )
                }
                targets.append(target)
            }
        }
        let tool = try context.tool(named: "strata-schema").url
        for target in targets {
            let history = target.directoryURL.appending(path: "strata-schema.json")
            let sources: [String] = target.sourceFiles(withSuffix: "swift").map { (file: File) -> String in
                file.url.path
            }.sorted()
            let process = Process()
            process.executableURL = tool
            var options: [String] = []
            for rename in typeRenames { options += ["--rename-type", rename] }
            if let version = schemaVersions.last { options += ["--schema-version", version] }
            process.arguments = ["update", "--target", target.name, "--history", history.path] + options + sources
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CommandError(
                    "strata-schema could not record the schema of target '\(target.name)'; fix the errors above and run the command again"
                )
            }
        }
    }
}

struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
