import StrataPOSIX

/// A handle to a tree inside one write transaction.
///
/// ## Concurrency
/// A value type tied to its transaction.
public struct TreeHandle: Hashable, Sendable {
    let index: Int

    /// The tree's place among the transaction's open trees: small, dense and stable for the
    /// transaction (callers index their own tables with it).
    package var slot: Int { index }
}
