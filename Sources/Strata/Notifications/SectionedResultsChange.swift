import Foundation

/// What changed in `SectionedResults` or a `ResultsSection`, as their `observe` reports it.
///
/// ```swift
/// let token = sections.observe { change in
///     switch change {
///     case .initial(let sections): print(sections.allKeys)
///     case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
///         print(deletions, insertions, modifications, sectionsToInsert, sectionsToDelete)
///     }
/// }
/// ```
///
/// ## Concurrency
/// Carries its collection, which is confined with the realm it was delivered on.
@frozen public enum SectionedResultsChange<Collection> {
    /// The first call, once the sections are computed.
    case initial(Collection)
    /// A commit (or several coalesced) changed the sections. `deletions` are index paths in the
    /// previous sections (elements of deleted sections are not listed), `insertions` index
    /// paths in the new ones (elements of inserted sections included), `modifications` index
    /// paths in the previous sections of elements that changed and stayed in their section (an
    /// element whose order among the others changed is a deletion and an insertion instead);
    /// `sectionsToDelete` are positions of sections in the previous sections,
    /// `sectionsToInsert` positions in the new ones. All sorted ascending.
    case update(
        Collection, deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath],
        sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)
}

/// RealmSwift's former name of `SectionedResultsChange`.
@available(*, deprecated, renamed: "SectionedResultsChange")
public typealias RealmSectionedResultsChange = SectionedResultsChange
