import Foundation

/// A collection with change notifications, observed without its type. Not API.
protocol _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken
}

/// `change` with its collection as `Any`.
private func _erased<C>(_ change: RealmCollectionChange<C>) -> RealmCollectionChange<Any> {
    switch change {
    case .initial(let c): .initial(c)
    case .update(let c, let d, let i, let m): .update(c, deletions: d, insertions: i, modifications: m)
    case .error(let e): .error(e)
    }
}

extension Results: _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: place) { block(_erased($0)) }
    }
}

extension List: _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: place) { block(_erased($0)) }
    }
}

extension MutableSet: _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: place) { block(_erased($0)) }
    }
}

extension LinkingObjects: _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: place) { block(_erased($0)) }
    }
}

extension AnyRealmCollection: _ObservableRealmCollection {
    func _strataObserve(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (RealmCollectionChange<Any>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: place) { block(_erased($0)) }
    }
}
