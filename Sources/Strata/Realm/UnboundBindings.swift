import Foundation

/// The bindings made without a realm (for `Object(value:)`, and key-value coding and copies of
/// unmanaged objects), one per class, made on first use and kept for the process.
///
/// A binding is immutable (its schema, table, accessors and add steps are all `let`s), so one
/// serves every unmanaged object of its class; building one reads the generated schema and
/// makes the table's layout and accessors, about 50,000 instructions, once per object before.
///
/// ## Concurrency
/// Any thread: lookups and insertions take a lock; two threads making the same class's binding
/// at once both make one, and the first stored is kept.
final class UnboundBindings: @unchecked Sendable {
    private let lock = NSLock()
    private var bindings: [ObjectIdentifier: TableBinding] = [:]

    /// The process's bindings.
    static let shared = UnboundBindings()

    /// The binding of `type`, made by `make` the first time.
    func binding(for type: any ObjectSchemaProviding.Type, make: () -> TableBinding) -> TableBinding {
        let id = ObjectIdentifier(type)
        lock.lock()
        if let binding = bindings[id] {
            lock.unlock()
            return binding
        }
        lock.unlock()
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let binding = bindings[id] { return binding }
        bindings[id] = made
        return made
    }
}
