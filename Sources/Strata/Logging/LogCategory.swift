/// A category of log messages; ``Category`` names Strata's.
///
/// ## Concurrency
/// Categories are `Sendable` values.
public protocol LogCategory: Sendable {
    /// The category's dotted name, as `"Realm.Storage.Transaction"`.
    var rawValue: String { get }
}
