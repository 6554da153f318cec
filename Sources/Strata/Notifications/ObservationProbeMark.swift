internal import Synchronization

/// The subscript argument of the probe's key path: hashing it counts in
/// ``ObservationProbe/hashes``.
///
/// ## Concurrency
/// `Sendable`: stateless.
struct ObservationProbeMark: Hashable, Sendable {
    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {
        ObservationProbe.hashes.wrappingAdd(1, ordering: .relaxed)
        hasher.combine(0 as UInt8)
    }
}
