import Foundation

/// The previous snapshot of an observation, kept between deliveries.
final class _SectionSnapshotBox<Key: Hashable> {
    var snapshot: _SectionSnapshot<Key>?
}
