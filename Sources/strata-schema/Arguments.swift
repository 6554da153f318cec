import Foundation
import StrataSchemaKit

struct Arguments {
    var command = ""
    var target = "target"
    var output: String?
    var history: String?
    var sources: [String] = []
    /// `--rename-type OLD=NEW`: old name by new name.
    var typeRenames: [String: String] = [:]
    var schemaVersion: Int?

    init(_ raw: [String]) throws(UsageError) {
        var rest = raw[...]
        guard let command = rest.popFirst() else { throw UsageError(message: usage) }
        self.command = command
        while let argument = rest.popFirst() {
            switch argument {
            case "--target", "--output", "--history":
                guard let value = rest.popFirst() else {
                    throw UsageError(message: "strata-schema: \(argument) needs a value\n\(usage)")
                }
                if argument == "--target" {
                    target = value
                } else if argument == "--output" {
                    output = value
                } else {
                    history = value
                }
            case "--rename-type":
                guard let value = rest.popFirst(),
                    case let parts = value.split(separator: "=", omittingEmptySubsequences: false),
                    parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty
                else {
                    throw UsageError(
                        message:
                            "strata-schema: --rename-type needs OLD=NEW, the class's name in the latest recorded version and its name now\n\(usage)"
                    )
                }
                typeRenames[String(parts[1])] = String(parts[0])
            case "--schema-version":
                guard let value = rest.popFirst(), let n = Int(value), n > 0 else {
                    throw UsageError(message: "strata-schema: --schema-version needs a positive number\n\(usage)")
                }
                schemaVersion = n
            default:
                if argument.hasPrefix("--") {
                    throw UsageError(message: "strata-schema: unknown option \(argument)\n\(usage)")
                }
                sources.append(argument)
            }
        }
    }
}
