/// What one registered read watched: a property (column) of one object, or a whole table (`key`
/// and `column` nil) for the reads of `Results` and `LinkingObjects`.
///
/// The key path Observation records for a read is `\ObservationSubject.[slot]`: equal key paths
/// name equal slots, so the commit that changes a slot's data finds the trackings that read it.
struct ObservationSlot: Hashable, Sendable {
    let table: String
    let key: Int64?
    let column: Int?

    /// The key path Observation records for this slot.
    var keyPath: KeyPath<ObservationSubject, Int> { \ObservationSubject.[self] }
}
