/// B-tree cells.
///
/// Leaf cell: key length u16, value word u32 (bit 31 = value is in an overflow run, bits 0-30 =
/// value length), key bytes, then the value bytes or the overflow run's first page (u32).
/// Branch cell: child page u32, key length u16, key bytes. Cell 0 of a branch has an empty key and
/// stands for "everything below the next key".
enum CellLayout {
    static let leafHeader = 6
    static let branchHeader = 6
    static let overflowFlag: UInt32 = 0x8000_0000
}
