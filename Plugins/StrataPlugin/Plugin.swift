import PackagePlugin

/// Placeholder build-tool plugin; the real one lands with the schema compiler (issue 3).
@main
struct StrataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] { [] }
}
