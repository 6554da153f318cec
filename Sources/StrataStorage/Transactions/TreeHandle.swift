import StrataPOSIX

/// A handle to a tree inside one write transaction.
///
/// ## Concurrency
/// A value type tied to its transaction.
public struct TreeHandle: Hashable, Sendable {
    let index: Int
}
