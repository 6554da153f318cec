import Atomics
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a commit is made durable.
public enum Durability: Sendable, Equatable {
    /// `commit` returns after the commit is on stable storage (one `fdatasync`).
    case full
    /// `commit` publishes the new version to readers and returns without waiting for the disk.
    /// A later ``Database/sync()`` (or the next `.full` commit) makes it, and every deferred
    /// commit before it, durable with one `fdatasync`. A crash before then loses deferred commits
    /// but never an earlier durable one. This is the grouped-commit mode asynchronous writes use.
    case deferred
}
