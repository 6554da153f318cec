import Foundation

/// One property of an observed object that a commit changed (`ObjectChange.change`).
public struct PropertyChange {
    /// The property's name.
    public let name: String
    /// Its value before the change, as the property's Swift type would hold it (`Int`,
    /// `String`, `Date`, ... or nil for a null), read from the previous version. Nil for links
    /// and collections, and for a change reached through a linked object (`"toys.brand"`).
    public let oldValue: Any?
    /// Its value after the change, in the same form; nil for links and collections (read them
    /// from the object) and for a change reached through a linked object.
    public let newValue: Any?
}
