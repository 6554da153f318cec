import Foundation
import PackagePlugin

/// Runs `strata-schema generate` on the Swift files of a target and adds the generated
/// `<Target>+Strata.swift` to it.
///
/// Inputs are exactly the target's Swift files plus `strata-schema.json` when it exists; the
/// output is exactly one file. SwiftPM reruns the generator only when one of those changes.
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw StrataPluginError.notASwiftTarget(target.name)
        }
        let sources: [URL] = target.sourceFiles(withSuffix: "swift").map { (file: File) -> URL in file.url }
            .sorted { (a: URL, b: URL) -> Bool in a.path < b.path }
        guard !sources.isEmpty else { throw StrataPluginError.noSwiftFiles(target.name) }
        let history = target.directoryURL.appending(path: "strata-schema.json")
        let hasHistory = FileManager.default.fileExists(atPath: history.path)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)+Strata.swift")

        var arguments = ["generate", "--target", target.name, "--output", output.path]
        if hasHistory { arguments += ["--history", history.path] }
        arguments += sources.map { (url: URL) -> String in url.path }
        return [
            .buildCommand(
                displayName: "Generating Strata schema for \(target.name)",
                executable: try context.tool(named: "strata-schema").url,
                arguments: arguments,
                inputFiles: sources + (hasHistory ? [history] : []),
                outputFiles: [output]
            )
        ]
    }
}

/// Errors that name the target and the fix.
enum StrataPluginError: Error, CustomStringConvertible {
    case notASwiftTarget(String)
    case noSwiftFiles(String)

    var description: String {
        switch self {
        case .notASwiftTarget(let name):
            "StrataPlugin can only generate schemas for Swift source targets, and '\(name)' is not one; remove `.plugin(name: \"StrataPlugin\", package: \"Strata\")` from its `plugins:`"
        case .noSwiftFiles(let name):
            "StrataPlugin found no Swift files in target '\(name)'; add the model files to the target, or remove the plugin from its `plugins:`"
        }
    }
}
