import Foundation

/// How `@ObservedRealmObject` observes a `List`. Not API.
enum ObservedListSubscription {
    /// The storage of an `@ObservedRealmObject` holding `list`: observed from its realm when it
    /// is managed and its owner exists, else held as it is (and Observation turned on).
    static func storage<V>(for list: List<V>) -> ObservedValueStorage<List<V>?> {
        ObservedCollectionSubscription.storage(ObservedCollectionSubscription.plan(list))
    }
}
