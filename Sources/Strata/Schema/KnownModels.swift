import Foundation

/// The model classes this process has bound to a table (from their generated
/// `ObjectSchemaProviding` conformance), found by identity.
///
/// Asking the Swift runtime whether a class conforms to `ObjectSchemaProviding` (`as? any
/// ObjectSchemaProviding.Type`) makes it scan every protocol conformance record of the process
/// the first time it asks about that class (about 0.35M instructions): a type-safe query's
/// first key path paid it in every process (Docs/Performance.md, "A first query's runtime
/// lookups"). Every class a realm uses was bound with its conformance in hand, so the query looks
/// here first and casts only classes no realm has bound.
///
/// A sorted array searched by halves: a `Set` or `Dictionary` keyed by `ObjectIdentifier` would
/// make the runtime look up `ObjectIdentifier: Hashable`, a scan of its own, on first use.
///
/// ## Concurrency
/// Any thread: a lock guards the list.
final class KnownModels: @unchecked Sendable {
    private let lock = NSLock()
    private var sorted: [any ObjectSchemaProviding.Type] = []

    /// The process's list.
    static let shared = KnownModels()

    /// Records `type` (once).
    func add(_ type: any ObjectSchemaProviding.Type) {
        lock.lock()
        defer { lock.unlock() }
        let i = Self.position(of: ObjectIdentifier(type), in: sorted)
        if i < sorted.count, ObjectIdentifier(sorted[i]) == ObjectIdentifier(type) { return }
        sorted.insert(type, at: i)
    }

    /// `type`'s conformance when a realm of this process has bound it, else the runtime's answer
    /// to the cast.
    func provider(for type: ObjectBase.Type) -> (any ObjectSchemaProviding.Type)? {
        lock.lock()
        let found = Self.find(type, in: sorted)
        lock.unlock()
        return found ?? (type as? any ObjectSchemaProviding.Type)
    }

    /// `type` in `list` (sorted by `ObjectIdentifier`), by identity.
    static func find(
        _ type: AnyObject.Type, in list: [any ObjectSchemaProviding.Type]
    ) -> (
        any ObjectSchemaProviding.Type
    )? {
        let id = ObjectIdentifier(type)
        let i = position(of: id, in: list)
        return i < list.count && ObjectIdentifier(list[i]) == id ? list[i] : nil
    }

    /// The first index of `list` (sorted by `ObjectIdentifier`) whose identifier is not below
    /// `id`.
    private static func position(of id: ObjectIdentifier, in list: [any ObjectSchemaProviding.Type]) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            if ObjectIdentifier(list[mid]) < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
