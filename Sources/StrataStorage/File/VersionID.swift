/// A committed version of the database. Each commit creates the next version.
public struct VersionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ raw: UInt64) { self.rawValue = raw }
    public static func < (a: VersionID, b: VersionID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "version \(rawValue)" }
}
