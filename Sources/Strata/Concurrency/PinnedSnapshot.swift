import Foundation
internal import StrataCore
internal import StrataStorage

/// A read snapshot pinned by one or more realms; counted per file for
/// `maximumNumberOfActiveVersions`, released when the last realm using it lets go.
final class PinnedSnapshot: @unchecked Sendable {
    let read: ReadTransaction
    let file: RealmFile

    init(read: ReadTransaction, file: RealmFile) {
        self.read = read
        self.file = file
        file.pin(read.version.rawValue)
    }

    deinit {
        file.unpin(read.version.rawValue)
        read.end()
    }
}
