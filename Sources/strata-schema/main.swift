// strata-schema: the Strata schema compiler. The build plugin runs `generate`, the command plugin
// runs `update`; `print` shows a target's schema by hand. All logic lives in StrataSchemaKit.
import Foundation
import StrataSchemaKit

let usage = """
    usage: strata-schema generate --target NAME --output FILE [--history FILE] SOURCE...
           strata-schema update --target NAME --history FILE [--rename-type OLD=NEW]... [--schema-version N] SOURCE...
           strata-schema print SOURCE...
    """

func report(_ diagnostics: [SchemaDiagnostic]) {
    for diagnostic in diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }
}

func readInputs(_ paths: [String]) -> [DeclarationCollection.Input] {
    paths.sorted {
        ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent
            || (($0 as NSString).lastPathComponent == ($1 as NSString).lastPathComponent && $0 < $1)
    }
    .map { path in
        guard let data = FileManager.default.contents(atPath: path) else {
            fail("\(path):1:1: error: strata-schema cannot read this file")
        }
        return DeclarationCollection.Input(displayPath: path, source: String(decoding: data, as: UTF8.self))
    }
}

func readHistory(_ path: String?) -> SchemaHistory? {
    guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
    do {
        return try SchemaHistory.decode(data, path: path)
    } catch {
        fail(error.description)
    }
}

func write(_ text: String, to path: String) {
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        fail("strata-schema: error: cannot write \(path): \(error)")
    }
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.message)
}

switch arguments.command {
case "generate":
    guard let output = arguments.output else { fail("strata-schema: generate needs --output FILE\n\(usage)") }
    let outcome = SchemaCompiler.generate(
        targetName: arguments.target, inputs: readInputs(arguments.sources),
        history: readHistory(arguments.history),
        historyDisplayPath: arguments.history ?? SchemaHistory.fileName)
    report(outcome.diagnostics)
    guard let text = outcome.output, !outcome.hasErrors else { exit(1) }
    write(text, to: output)
case "update":
    guard let historyPath = arguments.history else { fail("strata-schema: update needs --history FILE\n\(usage)") }
    let result = SchemaCompiler.update(
        inputs: readInputs(arguments.sources), history: readHistory(historyPath),
        typeRenames: arguments.typeRenames, version: arguments.schemaVersion, historyDisplayPath: historyPath)
    report(result.diagnostics)
    guard let history = result.history else { exit(1) }
    if result.added {
        write(String(decoding: history.encoded(), as: UTF8.self), to: historyPath)
        print(
            "strata-schema: recorded schema version \(history.latest?.version ?? 0) of target '\(arguments.target)' in \(historyPath); commit it"
        )
    } else {
        print(
            "strata-schema: target '\(arguments.target)' matches schema version \(history.latest?.version ?? 0); nothing to record"
        )
    }
case "print":
    let outcome = SchemaCompiler.generate(
        targetName: arguments.target, inputs: readInputs(arguments.sources),
        history: nil, historyDisplayPath: SchemaHistory.fileName)
    report(outcome.diagnostics)
    guard let text = outcome.output else { exit(1) }
    print(text, terminator: "")
default:
    fail(usage)
}
