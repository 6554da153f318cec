import Foundation
internal import StrataCore
internal import StrataStorage

/// A managed collection: the property of an object it is a view of. A reference to one resolves
/// to the same property of the same object in another realm.
protocol _OwnedCollection {
    var collectionOwner: _CollectionOwner? { get }
    static func make(_ owner: _CollectionOwner) -> Self
}
