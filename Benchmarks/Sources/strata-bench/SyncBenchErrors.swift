import Foundation
import StrataSync

/// The errors the sync sessions of one `strata-bench sync` step reported to their
/// `SyncConfiguration.errorHandler` (a lost connection, a deadlock the server broke), so a row
/// shows whether its time includes a retry.
///
/// ## Concurrency
/// Thread-safe: the sessions call `record` on their own threads; every access holds `lock`.
final class SyncBenchErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    /// Records one error a session reported.
    func record(_ error: Error) {
        lock.withLock { messages.append("\(error)") }
    }

    /// The row fields: how many errors so far, and the first one's message.
    var fields: [String: Any] {
        lock.withLock {
            var f: [String: Any] = ["session_errors": messages.count]
            if let m = messages.first { f["session_error_first"] = String(m.prefix(240)) }
            return f
        }
    }
}
