import Atomics
import StrataPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What recovery did when a database was opened: the newest commit it found did not verify, so
/// it opened the version before it.
///
/// ## Concurrency
/// A value; `Sendable`.
public struct RecoveryReport: Sendable, Equatable, CustomStringConvertible {
    /// The commit that was rolled back.
    public var discardedVersion: VersionID
    /// The version the file was opened at.
    public var openedVersion: VersionID
    /// The first page of the discarded commit that failed verification (0: its meta record).
    public var page: UInt32
    /// What was wrong with that page.
    public var reason: String
    /// Whether the discarded commit had been acknowledged as durable (so it was damaged after
    /// it was written, and the file was opened with `openLastIntactVersion`); false for a commit
    /// torn by a crash before it was acknowledged.
    public var wasAcknowledged: Bool

    public var description: String {
        let why =
            wasAcknowledged
            ? "it was damaged after it was made durable" : "a crash interrupted it before it was durable"
        return
            "rolled back version \(discardedVersion.rawValue) (\(why): page \(page), \(reason)); opened version \(openedVersion.rawValue)"
    }
}
