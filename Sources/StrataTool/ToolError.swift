/// A failure of a `strata` command: what was wrong and what to do. ArgumentParser prints it
/// as `Error: <description>` and exits with status 1.
struct ToolError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
