import Foundation

extension ObservedSectionedResults where ResultType: Object {
    /// Deletes the objects at `offsets` of `section` from their realm in a quick write, as
    /// SwiftUI's `onDelete` of a section's rows does (`$dogsByBreed.remove(atOffsets:section:)`).
    /// Offsets outside the section and objects deleted since are skipped.
    ///
    /// ```swift
    /// for section in dogsByBreed {
    ///     $dogsByBreed.remove(atOffsets: IndexSet(integer: 0), section: section)
    /// }
    /// ```
    public func remove(atOffsets offsets: IndexSet, section: ResultsSection<Key, ResultType>) {
        let objects = offsets.filter { $0 >= 0 && $0 < section.count }.compactMap {
            section[$0].strataThawed() as? ResultType
        }
        guard let realm = objects.first?.realm else { return }
        QuickWrite.perform(in: realm) { realm.delete(objects) }
    }
}
