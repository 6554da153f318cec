/// Where an area's bytes are: a page, an offset in it and a length. Stored as 8 bytes,
/// little-endian: page `u32`, offset `u16`, length `u16`. `@_spi(StrataEngine) public` rather
/// than `package` so that the object store's reads inline it (Docs/Decisions.md, "Hot
/// cross-module types").
@_spi(StrataEngine) public struct AreaReference: Hashable, Sendable, CustomStringConvertible {
    /// The area page.
    public let page: UInt32
    /// The first byte's offset in the page (at least 32, a multiple of 8).
    public let offset: UInt16
    /// Bytes in the area (at least 1).
    public let length: UInt16

    /// Bytes of a stored reference.
    public static let size = 8

    /// A reference to the `length` bytes at `offset` of page `page`.
    @inlinable
    public init(page: UInt32, offset: UInt16, length: UInt16) {
        self.page = page
        self.offset = offset
        self.length = length
    }

    /// The reference stored at `p`.
    @inlinable @inline(__always)
    public init(at p: UnsafeRawPointer) {
        page = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
        offset = UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
        length = UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 6, as: UInt16.self))
    }

    /// Stores the reference at `p`.
    @inlinable @inline(__always)
    public func store(at p: UnsafeMutableRawPointer) {
        p.storeBytes(of: page.littleEndian, as: UInt32.self)
        p.storeBytes(of: offset.littleEndian, toByteOffset: 4, as: UInt16.self)
        p.storeBytes(of: length.littleEndian, toByteOffset: 6, as: UInt16.self)
    }

    /// The reference in words, for messages.
    public var description: String { "area of \(length) bytes at \(offset) of page \(page)" }
}
