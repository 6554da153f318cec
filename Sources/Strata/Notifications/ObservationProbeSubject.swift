import Observation

/// The subject of the probe's key path; it carries nothing.
///
/// ## Concurrency
/// `Sendable`: stateless.
final class ObservationProbeSubject: Observable, Sendable {
    static let shared = ObservationProbeSubject()

    /// The component of the probe's key path; its value is never read.
    subscript(mark: ObservationProbeMark) -> Int { 0 }
}
