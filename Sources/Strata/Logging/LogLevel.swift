/// How much a ``Logger`` reports: each level includes the ones before it.
///
/// What Strata logs at each level:
/// - `error`: a file found damaged, a failed commit;
/// - `warn`: a skipped compaction, a read-only fallback;
/// - `info`: compactions, copies, seed files, migrations (schema version changes);
/// - `detail`: files opened and closed, schema changes (tables and properties added);
/// - `debug`: decisions an open makes (why a compaction did not run);
/// - `trace`: every write transaction begun and committed.
///
/// ## Concurrency
/// A plain value; `Sendable`.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// Nothing.
    case off = 0
    /// Errors the process cannot go on after.
    case fatal
    /// Errors.
    case error
    /// Problems Strata worked around.
    case warn
    /// Events worth knowing in production (the default).
    case info
    /// More about what happens to files and schemas.
    case detail
    /// What a developer debugging an app wants to see.
    case debug
    /// Every transaction.
    case trace
    /// Everything.
    case all

    /// Levels compare by how much they report.
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// The level's name, as RealmSwift prints it.
    public var description: String {
        switch self {
        case .off: return "Off"
        case .fatal: return "Fatal"
        case .error: return "Error"
        case .warn: return "Warn"
        case .info: return "Info"
        case .detail: return "Detail"
        case .debug: return "Debug"
        case .trace: return "Trace"
        case .all: return "All"
        }
    }
}
