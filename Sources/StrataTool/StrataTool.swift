import ArgumentParser

/// `strata`: inspects and maintains Strata files without the app's models.
///
/// Every command works from the schema stored in the file (the object store's tables and
/// columns), so it reads any Strata file. Commands that only read open the file read-only and
/// may run while apps use it; `compact`, `import` and `upgrade` write through ordinary
/// transactions, so apps with the file open keep working too.
@main
struct StrataTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, verify and maintain Strata database files.",
        discussion: """
            Works on any Strata file without the app's models. Progress of long operations is \
            shown on standard error when it is a terminal.
            """,
        subcommands: [
            SchemaCommand.self, DumpCommand.self, ImportCommand.self, VerifyCommand.self,
            CompactCommand.self, StatsCommand.self, CopyCommand.self, UpgradeCommand.self,
        ]
    )
}
