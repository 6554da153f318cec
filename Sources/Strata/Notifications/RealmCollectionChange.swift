import Foundation

/// What a collection observer (`observe(keyPaths:on:_:)` on `Results`, `List`, ...) is told.
///
/// ```swift
/// token = results.observe { change in
///     switch change {
///     case .initial(let dogs): tableView.reloadData()
///     case .update(_, let deletions, let insertions, let modifications):
///         tableView.performBatchUpdates { ... }
///     case .error(let error): print(error)
///     }
/// }
/// ```
public enum RealmCollectionChange<CollectionType> {
    /// The collection was evaluated for the first time (always delivered asynchronously, after
    /// `observe` returned); it can be read without blocking.
    case initial(CollectionType)
    /// One or more commits changed which objects are in the collection or modified some of them.
    /// The three arrays are sorted ascending. `deletions` are indices in the previous version of
    /// the collection, `insertions` indices in the new one, `modifications` indices in the
    /// previous version of objects still present and modified. An object that moved (its sort
    /// key changed) is a deletion and an insertion. Removing the deleted indices from the
    /// previous contents and then inserting the new elements at the inserted indices gives the
    /// new contents.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The collection could not be evaluated (the file could not be read); no more
    /// notifications follow.
    case error(Swift.Error)
}
