import PackagePlugin

/// Placeholder command plugin; the real one lands with the schema compiler (issue 3).
@main
struct StrataSchemaCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {}
}
