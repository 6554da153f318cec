import Foundation

extension Realm.Configuration {
    /// The file system path of `url`, as `url.path` gives it.
    ///
    /// `url.path` decodes percent escapes with a `Set<UInt8>` whose first use in a process looks
    /// up `UInt8`'s `Hashable` conformance by scanning every conformance record of every loaded
    /// library (about 0.4M instructions under callgrind, on the path of the first open). The
    /// still-encoded path is the same string when it has no escape and no trailing slash (which
    /// `path` drops); other paths take `url.path`.
    static func filePath(of url: URL) -> String {
        let encoded = url.path(percentEncoded: true)
        if !encoded.utf8.contains(UInt8(ascii: "%")), encoded == "/" || encoded.utf8.last != UInt8(ascii: "/") {
            return encoded
        }
        return url.path
    }
}
