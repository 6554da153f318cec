/// A file path as a number: an index into a process-wide table of the paths opened so far (each
/// distinct path once), so that values carrying it hold no reference.
struct PathName: Equatable {
    let id: Int

    private static let lock = Lock()
    nonisolated(unsafe) private static var ids: [String: Int] = [:]
    nonisolated(unsafe) private static var paths: [String] = []

    /// The number of `path`, added to the table the first time.
    init(_ path: String) {
        id = Self.lock.withLock {
            if let id = Self.ids[path] { return id }
            Self.paths.append(path)
            Self.ids[path] = Self.paths.count - 1
            return Self.paths.count - 1
        }
    }

    var string: String { Self.lock.withLock { Self.paths[id] } }
}
