// Clusters: many objects of one table in one B+tree value, column by column (FORMAT.md,
// "Clusters"; Docs/ObjectStore.md). A scan reads only the columns it tests; integers take the
// bytes their range in the cluster needs.
//
// ```
// 0    u16  m: objects in the cluster (>= 1)
// 2    u16  n: columns of the table when the cluster was written (older clusters may have fewer)
// 4    u8   key width: 0 = keys are first, first + 1, ... (dense); else 1, 2, 4 or 8 bytes per key
// 5    u8   0
// 6    u16  0
// 8    i64  first object key (the entry's tree key)
// 16   n x 6 column descriptors: u32 area offset, u8 width, u8 flags (bit 0: null bitmap)
//      keys: m x key width bytes, unsigned deltas from the first key (absent when dense)
//      column areas (below)
// ```

/// Bytes per unsigned value up to `v`: 0, 1, 2, 4 or 8.
@inline(__always)
func clusterWidth(_ v: UInt64) -> Int {
    v == 0 ? 0 : v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
}

/// Loads an unsigned value of `width` bytes (0, 1, 2, 4, 8) at `offset`.
@inline(__always)
func clusterLoad(_ p: UnsafeRawPointer, _ offset: Int, _ width: Int) -> UInt64 {
    switch width {
    case 1: UInt64(p.load(fromByteOffset: offset, as: UInt8.self))
    case 2: UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4: UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default: 0
    }
}
