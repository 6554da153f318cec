import Foundation
import Observation

/// What a property wrapper (`@ObservedResults`, `@ObservedSectionedResults`,
/// `@ObservedRealmObject`) keeps: the frozen value it hands out, replaced by a newer frozen value
/// after each commit that changes it, and an Observation registrar, so that reading
/// ``value`` inside `withObservationTracking` (or a SwiftUI body) is told of the replacement.
///
/// The notifications come on a private serial queue, from a realm confined to it: the thread
/// that made the wrapper need not run a run loop, and may be inside a write transaction.
///
/// ## Concurrency
/// Thread-safe: `lock` guards the value; frozen values may be read on any thread.
final class ObservedValueStorage<Value>: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    private var current: Value
    private var token: NotificationToken?
    private let queue = DispatchQueue(label: "io.strata.observed")

    /// A storage holding `placeholder` until `subscribe` (run on the private queue with a realm
    /// of `configuration` confined to it) publishes the first value; `subscribe` publishes the
    /// value it starts with synchronously, so the wrapper never shows the placeholder when the
    /// realm opens.
    init(
        placeholder: Value, configuration: Realm.Configuration,
        subscribe: @escaping (Realm, DispatchQueue, _ publish: @escaping (Value) -> Void) -> NotificationToken?
    ) {
        current = placeholder
        ObservationGate.set(true)
        start(configuration: configuration, subscribe: subscribe)
    }

    /// Stops the current notifications and subscribes again (a new value to observe).
    func restart(
        with value: Value, configuration: Realm.Configuration?,
        subscribe: @escaping (Realm, DispatchQueue, _ publish: @escaping (Value) -> Void) -> NotificationToken?
    ) {
        let old = queue.sync { () -> NotificationToken? in
            defer { token = nil }
            return token
        }
        old?.invalidate()
        publish(value)
        if let configuration { start(configuration: configuration, subscribe: subscribe) }
    }

    private func start(
        configuration: Realm.Configuration,
        subscribe: @escaping (Realm, DispatchQueue, _ publish: @escaping (Value) -> Void) -> NotificationToken?
    ) {
        let queue = self.queue
        queue.sync {
            do {
                let realm = try Realm(configuration: configuration, queue: queue)
                token = subscribe(realm, queue) { [weak self] value in self?.publish(value) }
            } catch {
                QuickWrite.report(error)
            }
        }
    }

    /// A storage for a value that is not observed (an unmanaged object): it never changes.
    init(constant: Value) {
        current = constant
    }

    deinit {
        token?.invalidate()
    }

    /// The current frozen value; a read inside `withObservationTracking` is told when it changes.
    var value: Value {
        registrar.access(self, keyPath: \.value)
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Replaces the value, then tells the trackings that read it. The value changes before
    /// `willSet`, so a tracking installed while it changes (Observation installs a tracking once
    /// its closure returned) either is told, or reads the new value when it looks again.
    func publish(_ value: Value) {
        lock.lock()
        current = value
        lock.unlock()
        registrar.willSet(self, keyPath: \.value)
        registrar.didSet(self, keyPath: \.value)
    }

}
