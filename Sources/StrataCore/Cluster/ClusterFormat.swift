/// Constants of the cluster format.
enum ClusterFormat {
    static let headerSize = 16
    static let descriptorSize = 6
    /// Descriptor flag: the area starts with a null bitmap of ceil(m / 8) bytes.
    static let hasNulls: UInt8 = 1
    /// How many of a cluster's first columns a point lookup's prefetches cover
    /// (`ClusterView.prefetchSlots`, `RowReader.prefetchValues`): enough for most models, and a
    /// bound on the hint's cost for wide ones.
    static let prefetchedColumns = 16

    /// Column `c`'s descriptor in the cluster at `base`: area offset, width, null bitmap.
    @inline(__always)
    static func descriptor(_ base: UnsafeRawPointer, _ c: Int) -> (offset: Int, width: Int, nulls: Bool) {
        let d = base + headerSize + c * descriptorSize
        return (
            Int(UInt32(littleEndian: d.loadUnaligned(as: UInt32.self))),
            Int(d.load(fromByteOffset: 4, as: UInt8.self)),
            d.load(fromByteOffset: 5, as: UInt8.self) & hasNulls != 0
        )
    }

    /// Writes column `c`'s descriptor into the cluster at `base` (all zeros for a column
    /// without an area).
    @inline(__always)
    static func setDescriptor(_ base: UnsafeMutableRawPointer, _ c: Int, offset: Int, width: Int, nulls: Bool) {
        let d = base + headerSize + c * descriptorSize
        d.storeBytes(of: UInt32(offset).littleEndian, as: UInt32.self)
        d.storeBytes(of: UInt8(width), toByteOffset: 4, as: UInt8.self)
        d.storeBytes(of: nulls ? hasNulls : 0, toByteOffset: 5, as: UInt8.self)
    }
}
