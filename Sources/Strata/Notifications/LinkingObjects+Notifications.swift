import Foundation
internal import StrataCore

extension LinkingObjects {
    /// Calls `block` with the changes of the objects linking to the owner: `.initial` once
    /// (asynchronously), then `.update` with indices deleted (previous version), inserted (new
    /// version) and modified (objects changed in a watched property, previous version), for
    /// commits from any realm, thread or process.
    ///
    /// - Parameters:
    ///   - keyPaths: The linking objects' properties that count as modifications; nil for all.
    ///   - queue: A serial queue to deliver on; nil for the realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// Registers observation of the objects linking to the owner, delivering to `target`.
    func observe(
        keyPaths: [String]?, target: DeliveryTarget,
        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void
    ) -> NotificationToken {
        let token = NotificationToken()
        guard let owner else { return token }
        let realm = owner.realm
        let state = owner.state
        let property = state.binding.schema.properties[owner.index]
        let stored = state.binding.table.columns[state.binding.columns[owner.index]].originProperty
        guard let originName = property.objectClassName, let column = stored ?? property.linkOriginPropertyName,
            let originBinding = realm.binding(named: originName)
                ?? realm.bindingForName(originName, from: state.binding),
            let filter = KeyPathFilter.make(keyPaths, binding: originBinding, file: realm.file)
        else { return token }
        let entry = LinkingObjectsNotifierEntry(
            token: token, target: target, table: state.binding.table, key: state.key,
            origin: originBinding.table.name, column: column, filter: filter
        ) { event in
            { realm in
                let moved = owner.moved(to: realm)
                let objects = LinkingObjects._strataManagedGet(moved.state, moved.index)
                switch event {
                case .initial: block(.initial(objects))
                case .update(let d):
                    block(
                        .update(
                            objects, deletions: d.deletions, insertions: d.insertions, modifications: d.modifications))
                case .error(let e): block(.error(e))
                }
            }
        }
        token.attach(entry, to: realm.file.notifier)
        return token
    }
}
