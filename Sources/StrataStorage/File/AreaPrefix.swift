/// The beginning of every value of a tree that holds areas (``Tree/holdsAreas``): a count `n`
/// (`u8`), then `n` area references; the rest of the value is the caller's. The engine reads it
/// to count the references (the area-counts tree), to check them (`verify()`), to move their
/// pages (`compact()`) and to copy them (`writeCopy`).
@_spi(StrataEngine) public enum AreaPrefix {
    /// The most references a value may begin with.
    public static let maximumReferences = 255

    /// Bytes of a prefix with `references` references.
    @inlinable @inline(__always)
    public static func size(references: Int) -> Int { 1 + references * AreaReference.size }

    /// How many references `value` begins with, checked to fit in it; nil if it does not.
    @inlinable @inline(__always)
    public static func count(of value: UnsafeRawBufferPointer) -> Int? {
        guard let p = value.baseAddress, value.count >= 1 else { return nil }
        let n = Int(p.load(as: UInt8.self))
        return size(references: n) <= value.count ? n : nil
    }

    /// Reference `i` of `value` (whose count was checked).
    @inlinable @inline(__always)
    public static func reference(_ i: Int, of value: UnsafeRawBufferPointer) -> AreaReference {
        AreaReference(at: value.baseAddress! + 1 + i * AreaReference.size)
    }
}
