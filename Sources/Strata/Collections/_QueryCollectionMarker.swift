import Foundation
internal import StrataCore
internal import StrataStorage
internal import StrataQuery

/// Collections of the model vocabulary, so paths through them compare with `ANY`. Not API.
public protocol _QueryCollectionMarker {}
extension List: _QueryCollectionMarker {}
extension MutableSet: _QueryCollectionMarker {}
