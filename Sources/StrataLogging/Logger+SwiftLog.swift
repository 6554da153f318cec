import Logging
import Strata

extension Strata.Logger {
    /// A Strata logger that passes every message to `logger`, a swift-log `Logger`, with the
    /// Strata category in the metadata (`strata.category`).
    ///
    /// ```swift
    /// import Logging
    /// import StrataLogging
    ///
    /// Strata.Logger.shared = .swiftLog(Logging.Logger(label: "app.strata"))
    /// Strata.Logger.setLogLevel(.detail)
    /// ```
    ///
    /// Strata's levels decide which messages are made (``Strata/Logger/setLogLevel(_:for:)``);
    /// `logger`'s log level then filters them as for any swift-log message. Levels map as:
    /// fatal -> critical, error -> error, warn -> warning, info -> info, detail -> notice,
    /// debug -> debug, trace and all -> trace.
    ///
    /// ## Concurrency
    /// `Sendable`, as swift-log's `Logger` is: messages may come from any thread.
    public static func swiftLog(_ logger: Logging.Logger) -> Strata.Logger {
        Strata.Logger(function: { level, category, message in
            guard let mapped = swiftLogLevel(level) else { return }
            logger.log(level: mapped, "\(message)", metadata: ["strata.category": .string(category.rawValue)])
        })
    }

    /// The swift-log level of a Strata level; nil for `.off`.
    public static func swiftLogLevel(_ level: LogLevel) -> Logging.Logger.Level? {
        switch level {
        case .off: return nil
        case .fatal: return .critical
        case .error: return .error
        case .warn: return .warning
        case .info: return .info
        case .detail: return .notice
        case .debug: return .debug
        case .trace, .all: return .trace
        }
    }
}
