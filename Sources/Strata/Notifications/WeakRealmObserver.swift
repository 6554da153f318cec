import Foundation
internal import Synchronization
internal import StrataCore
internal import StrataStorage

/// A realm's reference to one of its observers: weak, since the entry holds the realm.
struct WeakRealmObserver {
    weak var entry: RealmObserverEntry?
}
