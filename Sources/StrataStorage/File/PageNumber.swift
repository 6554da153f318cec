/// A page number: the page's byte offset is `rawValue * pageSize`.
///
/// 32 bits address 16 TiB with 4 KiB pages and 128 TiB with 32 KiB pages.
public struct PageNumber: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ raw: UInt32) { self.rawValue = raw }
    public static func < (a: PageNumber, b: PageNumber) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "page \(rawValue)" }
    /// Page 0 is a meta page, so it never stands for a tree node: 0 means "no page".
    static let none = PageNumber(0)
}
