import StrataPOSIX

/// Where `WriteTransaction.floor` last found an entry: the leaf, the cell, and what must still
/// hold for them to be right. Any change to any tree (`beginChange`) may move cells or pages, so
/// the hint is only used while `changeStamp` has not moved; the leaf pointer is then still
/// where the page is (the shadow table spills and the map grows only inside a change). Keys of
/// up to 16 bytes are kept (object keys are 8); longer ones never match.
struct FloorHint {
    let tree: Int
    let root: UInt32
    let stamp: UInt64
    let leaf: UnsafeMutableRawPointer
    let index: Int
    let keyCount: Int
    let low: UInt64
    let high: UInt64

    @inline(__always)
    init(
        _ key: UnsafeRawBufferPointer, tree: Int, root: UInt32, stamp: UInt64, leaf: UnsafeMutableRawPointer, index: Int
    ) {
        self.tree = tree
        self.root = root
        self.stamp = stamp
        self.leaf = leaf
        self.index = index
        (keyCount, low, high) = key.count <= 16 ? (key.count, Self.word(key, 0), Self.word(key, 8)) : (-1, 0, 0)
    }

    /// Bytes `from..<from+8` of `key`, zero past its end.
    @inline(__always)
    static func word(_ key: UnsafeRawBufferPointer, _ from: Int) -> UInt64 {
        if key.count >= from + 8 { return key.loadUnaligned(fromByteOffset: from, as: UInt64.self) }
        var w: UInt64 = 0
        if key.count <= from { return 0 }
        for j in from..<key.count { w |= UInt64(key[j]) << (8 * UInt64(j - from)) }
        return w
    }

    @inline(__always)
    func matches(_ key: UnsafeRawBufferPointer) -> Bool {
        key.count == keyCount && Self.word(key, 0) == low && Self.word(key, 8) == high
    }
}
