import Foundation
internal import Synchronization

/// Where Strata's log messages go, and how much of them, as RealmSwift's `Logger`.
///
/// Every message has a level (``LogLevel``) and a category (``Category``); a message is passed
/// to ``Logger/shared`` when its category's level includes it. The default logger writes to
/// standard error, and the default level is `.info` for every category.
///
/// ```swift
/// Logger.shared = Logger(function: { level, category, message in
///     print("\(category.rawValue) \(level): \(message)")
/// })
/// Logger.setLogLevel(.debug, for: Category.realm)
/// ```
///
/// ## Concurrency
/// `Sendable`: messages may be logged from any thread, so the log function must be thread-safe.
/// Levels and `shared` may be changed from any thread.
public final class Logger: @unchecked Sendable {
    /// A log function: the message's level, its category and the message.
    public typealias Function = @Sendable (LogLevel, any LogCategory, String) -> Void

    let function: Function

    /// A logger that calls `function` with each message logged at an enabled level.
    public init(function: @escaping Function) {
        self.function = function
    }

    /// A logger that calls `logFunction` with each message; sets the level of every category to
    /// `level` (RealmSwift's older initializer).
    public convenience init(level: LogLevel, logFunction: @escaping @Sendable (LogLevel, String) -> Void) {
        self.init(function: { level, _, message in logFunction(level, message) })
        Logger.setLogLevel(level, for: Category.realm)
    }

    /// A logger that calls `function` with each message; sets the level of every category to
    /// `level`.
    public convenience init(level: LogLevel, function: @escaping Function) {
        self.init(function: function)
        Logger.setLogLevel(level, for: Category.realm)
    }

    /// The level of the top category (`Category.realm`); setting it sets every category's.
    public var level: LogLevel {
        get { Logger.logLevel(for: Category.realm) }
        set { Logger.setLogLevel(newValue, for: Category.realm) }
    }

    /// Passes `message` to this logger's function when `category`'s level includes `level`.
    public func log(level: LogLevel, category: any LogCategory = Category.sdk, message: String) {
        guard Logger.isEnabled(level, category.rawValue) else { return }
        function(level, category, message)
    }

    // MARK: The shared logger and the levels

    private static let state = Mutex(State())
    /// The most detailed level any category has: a message above it is dropped with one load.
    private static let mostDetailed = Atomic<Int>(LogLevel.info.rawValue)

    private struct State {
        var shared = Logger.standardError
        var levels: [String: LogLevel] = {
            var levels: [String: LogLevel] = [Category.realm.rawValue: .info, Category.Storage.all.rawValue: .info]
            for name in Category.leaves { levels[name] = .info }
            return levels
        }()
    }

    /// The logger Strata logs to. By default it writes each message to standard error.
    public static var shared: Logger {
        get { state.withLock { $0.shared } }
        set { state.withLock { $0.shared = newValue } }
    }

    /// Sets the level of `category` and of its subcategories (`Category.realm`, the default, sets
    /// every category's).
    public static func setLogLevel(_ level: LogLevel, for category: any LogCategory = Category.realm) {
        let name = category.rawValue
        state.withLock { s in
            for key in Array(s.levels.keys) where key == name || key.hasPrefix(name + ".") { s.levels[key] = level }
            s.levels[name] = level
            mostDetailed.store(s.levels.values.map(\.rawValue).max() ?? 0, ordering: .relaxed)
        }
    }

    /// The level of `category`.
    public static func logLevel(for category: any LogCategory) -> LogLevel {
        state.withLock { $0.levels[category.rawValue] ?? .info }
    }

    /// Whether a message of `level` in the category named `name` is logged.
    static func isEnabled(_ level: LogLevel, _ name: String) -> Bool {
        guard level != .off, level.rawValue <= mostDetailed.load(ordering: .relaxed) else { return false }
        return state.withLock { level <= ($0.levels[name] ?? .info) }
    }

    /// Logs `message` (built only when the level is enabled) to the shared logger.
    static func log(_ level: LogLevel, _ category: any LogCategory = Category.sdk, _ message: @autoclosure () -> String)
    {
        guard isEnabled(level, category.rawValue) else { return }
        shared.function(level, category, message())
    }

    /// The default logger: one line per message on standard error.
    static let standardError = Logger(function: { level, category, message in
        FileHandle.standardError.write(Data("Strata \(category.rawValue) \(level): \(message)\n".utf8))
    })
}
