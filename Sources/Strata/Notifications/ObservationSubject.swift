import Observation

/// The subject Strata's reads and changes name to Observation. Observation matches a change with
/// the trackings that read it by registrar and key path only; the subject itself carries nothing.
/// The key paths are subscripts by ``ObservationSlot`` (which object, property or table).
///
/// ## Concurrency
/// `Sendable`: stateless.
final class ObservationSubject: Observable, Sendable {
    static let shared = ObservationSubject()

    /// The component of the key path of `slot`; its value is never read.
    subscript(slot: ObservationSlot) -> Int { 0 }
}
