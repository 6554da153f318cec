import Foundation

extension ProjectionObservable {
    /// Calls `block` after each commit that changes a projected property of the projected object
    /// (`.change`, with one `PropertyChange` per projected property reading a changed property,
    /// named as the projection names it), or that deletes the object (`.deleted`, the last call).
    /// There is no initial call. Built on `Object.observe` of `rootObject`, with its rules for
    /// threads, queues and writes.
    ///
    /// ```swift
    /// let token = personView.observe(keyPaths: ["surname"]) { change in
    ///     if case .change(let view, let properties) = change { print(view.surname, properties) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPaths: The projected properties to watch, by their names in the projection
    ///     (`"surname"`) or the paths they read (`"lastName"`); nil or empty for all of them.
    ///   - queue: A serial queue to deliver on; nil for this realm's own context.
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    ///
    /// Each projected property reading a changed property is reported, also when its own value
    /// did not change (two projected properties of one property both are). `oldValue` is the
    /// projected value computed from the property's previous value; nil where the object
    /// observer gives no previous value (links, collections, changes reached through links).
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// projection of the object read from a realm confined to the actor (opened on the first
    /// delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void
    ) async -> NotificationToken {
        observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace, _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        let schema = (Self.self as? any _ProjectionSchemaProviding.Type)?._strataProjectedProperties ?? []
        var watched = schema
        if let keyPaths, !keyPaths.isEmpty {
            watched = schema.filter { keyPaths.contains($0.label) || keyPaths.contains($0.origin) }
            for name in keyPaths
            where !name.isEmpty && !schema.contains(where: { $0.label == name || $0.origin == name }) {
                Realm.violation("Property '\(name)' not found in projection '\(Self.self)'.", fallback: ())
            }
        }
        var origins: [String] = []
        for property in watched where !origins.contains(property.origin) { origins.append(property.origin) }
        // Without a generated list (a projection the generator did not see) every property is
        // watched and nothing can be named.
        let rootKeyPaths: [String]? = schema.isEmpty ? nil : origins
        return rootObject.observe(keyPaths: rootKeyPaths, place: place) { (change: ObjectChange<Root>) in
            switch change {
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            case .change(let object, let changes):
                let projection = Self(projecting: object)
                var projected: [PropertyChange] = []
                for change in changes {
                    for property in watched
                    where property.origin.split(separator: ".").first.map(String.init) == change.name {
                        var oldValue: Any?
                        if let old = change.oldValue {
                            let previous = Root()
                            previous.setValue(old, forKey: change.name)
                            oldValue = Self(projecting: previous)[keyPath: property.projectionKeyPath]
                        }
                        projected.append(
                            PropertyChange(
                                name: property.label, oldValue: oldValue,
                                newValue: projection[keyPath: property.projectionKeyPath]))
                    }
                }
                if !projected.isEmpty || schema.isEmpty { block(.change(projection, projected)) }
            }
        }
    }

    /// `observe(keyPaths:on:_:)` with the projection's own key paths (`\PersonView.surname`).
    public func observe(
        keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
        _ block: @escaping (ObjectChange<Self>) -> Void
    ) -> NotificationToken {
        let schema = (Self.self as? any _ProjectionSchemaProviding.Type)?._strataProjectedProperties ?? []
        let names = keyPaths.map { keyPath in
            schema.first { $0.projectionKeyPath == keyPath }?.label
                ?? Realm.violation("The key path \(keyPath) is not a projected property of \(Self.self).", fallback: "")
        }
        return observe(keyPaths: names, on: queue, block)
    }
}
