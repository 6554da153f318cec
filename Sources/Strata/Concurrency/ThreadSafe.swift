import Foundation
internal import StrataCore
internal import StrataStorage

/// A property wrapper that keeps a live object across threads and actors by storing a
/// `ThreadSafeReference` and resolving it on each read in the reading thread's realm:
///
/// ```swift
/// @ThreadSafe var dog = realm.objects(Dog.self).first
/// DispatchQueue.global().async { print(dog?.name ?? "deleted") }
/// ```
///
/// ## Concurrency
/// `Sendable`; the value it returns is live on the reading thread.
@propertyWrapper
public final class ThreadSafe<T: Object>: @unchecked Sendable {
    private let lock = NSLock()
    private var configuration: Realm.Configuration?
    private var className = ""
    private var key: Int64?

    /// Wraps `wrappedValue`, which must be managed (or nil).
    public init(wrappedValue: T?) {
        set(wrappedValue)
    }

    /// The object, resolved in the calling thread's realm; nil if unset or deleted.
    public var wrappedValue: T? {
        get {
            lock.lock()
            let (config, key) = (configuration, self.key)
            lock.unlock()
            guard let config, let key, let realm = try? Realm(configuration: config) else { return nil }
            realm.refresh()
            guard let binding = realm.binding(for: T.self), realm.currentRow(binding, key) != nil else { return nil }
            return realm.object(binding, key: key) as? T
        }
        set { set(newValue) }
    }

    private func set(_ value: T?) {
        lock.lock()
        defer { lock.unlock() }
        guard let value, let state = value._strataManaged else {
            configuration = nil
            key = nil
            if value != nil {
                Realm.violation(
                    "@ThreadSafe holds only managed objects; add the object to a realm first.", fallback: ())
            }
            return
        }
        configuration = state.realm.configuration
        className = state.binding.className
        key = state.key
    }
}
