import ArgumentParser

/// The file argument every command takes.
struct FileArgument: ParsableArguments {
    @Argument(help: "The Strata file.", completion: .file())
    var file: String
}
