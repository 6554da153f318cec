import Foundation

// Change notifications as async sequences: what Combine publishers are for on Apple platforms.
//
//     for await change in realm.objects(Dog.self).changes() {
//         if case .update(let dogs, let deletions, let insertions, _) = change { ... }
//     }
//
// The observation is registered when `changes` is called (on the realm's context, with the
// same rules as `observe`), and changes are yielded on that context; a consumer on the same
// actor (the main actor for a realm of the main thread) reads them in order. The sequence ends,
// and the observation with it, when the consuming task is cancelled or the sequence is dropped.

extension Results {
    /// The results' changes as an async sequence (`.initial` first), observing `keyPaths` as
    /// `observe(keyPaths:on:_:)` does. Ends when the iterating task is cancelled.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<RealmCollectionChange<Results<Element>>> {
        Self.stream { continuation in observe(keyPaths: keyPaths) { continuation.yield(UncheckedBox($0).value) } }
    }
}

extension ObjectBase {
    /// The object's changes as an async sequence, observing `keyPaths` as
    /// `observe(keyPaths:on:_:)` does; it finishes after `.deleted`. Ends when the iterating
    /// task is cancelled.
    public func changes<T: ObjectBase>(
        _ type: T.Type = T.self, keyPaths: [String]? = nil
    ) -> AsyncStream<ObjectChange<T>> {
        Results<Object>.stream { continuation in
            observe(keyPaths: keyPaths) { (change: ObjectChange<T>) in
                continuation.yield(UncheckedBox(change).value)
                if case .deleted = change { continuation.finish() }
            }
        }
    }
}

extension Realm {
    /// The realm's notifications (`.didChange`, `.refreshRequired`) as an async sequence. Ends
    /// when the iterating task is cancelled.
    public func changes() -> AsyncStream<Realm.Notification> {
        Results<Object>.stream { continuation in observe { note, _ in continuation.yield(note) } }
    }
}

extension Results {
    /// An async stream fed by the observation `register` makes; the token is invalidated when
    /// the stream terminates (cancelled task, dropped stream, finished).
    static func stream<Value>(_ register: (AsyncStream<Value>.Continuation) -> NotificationToken) -> AsyncStream<Value>
    {
        var continuation: AsyncStream<Value>.Continuation!
        let stream = AsyncStream<Value>(bufferingPolicy: .unbounded) { continuation = $0 }
        let token = register(continuation)
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}
