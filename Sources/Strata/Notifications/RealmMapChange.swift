import Foundation

/// What a `Map` observer is told.
public enum RealmMapChange<Collection> {
    /// The map was read for the first time (delivered asynchronously after `observe` returned).
    case initial(Collection)
    /// Commits removed the keys in `deletions`, added those in `insertions`, and changed the
    /// values (or the objects they link to) of those in `modifications`.
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    /// The map could not be read; no more notifications follow.
    case error(Swift.Error)
}
