import StrataStorage

/// A validated cluster: its header, and where each object's key is.
///
/// Construction checks that every column area of the stored columns lies inside the bytes and
/// that variable-width end offsets rise, so a `RowReader` over it never reads outside it. (Keys
/// are not checked to rise: wrong keys find wrong objects, but read nothing outside.)
struct ClusterView {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let columnCount: Int
    let keyWidth: Int
    let firstKey: Int64

    /// nil when `bytes` is not a well-formed cluster of `table`.
    /// - Parameter rising: also check that variable-width end offsets rise (reads need it);
    ///   without it, only that each column's area, up to its last end offset, lies inside.
    init?(_ bytes: UnsafeRawBufferPointer, table: borrowing StoreTable, checkColumns: Bool = true, rising: Bool = true)
    {
        guard bytes.count >= ClusterFormat.headerSize, let base = bytes.baseAddress else { return nil }
        let m = Int(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
        let n = Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let kw = Int(base.load(fromByteOffset: 4, as: UInt8.self))
        guard m >= 1, n <= table.layout.columnCount, kw == 0 || kw == 1 || kw == 2 || kw == 4 || kw == 8 else {
            return nil
        }
        let keysEnd = ClusterFormat.headerSize + n * ClusterFormat.descriptorSize + m * kw
        guard keysEnd <= bytes.count else { return nil }
        self.bytes = bytes
        count = m
        columnCount = n
        keyWidth = kw
        firstKey = Int64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        // Keys are not checked to rise: a cluster whose keys do not finds wrong objects but never
        // reads outside its bytes. `Database.verify()`-level checks are the place for that.
        if kw == 0, firstKey > Int64.max - Int64(m - 1) { return nil }
        if checkColumns {
            for c in 0..<n
            where !Self.columnFits(
                base, bytes.count, m, c, table.layout.clusterKinds[c], table.layout.slotSizes[c], rising: rising)
            { return nil }
        }
    }

    /// Whether column `c` of `table` can be read from this cluster (validated without
    /// `checkColumns`): its area lies inside (a column the cluster predates has none). Inlined
    /// into the scans, which check each cluster's scanned columns with it.
    @inline(__always)
    func fits(column c: Int, table: StoreTable) -> Bool {
        c >= columnCount
            || Self.columnFits(
                bytes.baseAddress!, bytes.count, count, c, table.layout.clusterKinds[c], table.layout.slotSizes[c])
    }

    /// `fits(column:table:)` for a scanned column, whose kind and slot size the scan looked up
    /// once.
    @inline(__always)
    func fits(_ c: ScannedColumn) -> Bool {
        c.index >= columnCount || Self.columnFits(bytes.baseAddress!, bytes.count, count, c.index, c.kind, c.slotSize)
    }

    /// Whether column `c`'s area lies inside the cluster (and, for variable-width columns, its
    /// end offsets rise).
    static func columnFits(
        _ base: UnsafeRawPointer, _ size: Int, _ m: Int, _ c: Int, _ kind: ClusterColumnKind, _ slotSize: Int,
        rising: Bool = true
    ) -> Bool {
        if kind == .none { return true }
        let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
        var start = offset + (nulls ? (m + 7) / 8 : 0)
        switch kind {
        case .none: return true
        case .int:
            guard width == 0 || width == 1 || width == 2 || width == 4 || width == 8 else { return false }
            return start + 8 + m * width <= size
        case .fixed:
            return width == slotSize && start + m * width <= size
        case .variable:
            guard width == 2 || width == 4, start + m * width <= size else { return false }
            // End offsets must rise (object i reads [end(i - 1), end(i))).
            var previous = 0
            if !rising {
                previous = Int(clusterLoad(base, start + (m - 1) * width, width))
            } else if width == 2 {
                for i in 0..<m {
                    let e = Int(
                        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: start + 2 * i, as: UInt16.self)))
                    if e < previous { return false }
                    previous = e
                }
            } else {
                for i in 0..<m {
                    let e = Int(
                        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)))
                    if e < previous { return false }
                    previous = e
                }
            }
            start += m * width
            return start + previous <= size
        }
    }

    /// Where the cluster's encoded bytes end: after its last column area (or its keys). The
    /// bytes from there to the value's end are its reserve for in-place inserts.
    func contentEnd(table: StoreTable) -> Int {
        let base = bytes.baseAddress!
        var end = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize + count * keyWidth
        for c in 0..<columnCount where table.layout.clusterKinds[c] != .none {
            let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
            var e = offset + (nulls ? (count + 7) >> 3 : 0)
            switch table.layout.clusterKinds[c] {
            case .none: break
            case .int: e += 8 + count * width
            case .fixed: e += count * width
            case .variable: e += count * width + Int(clusterLoad(base, e + (count - 1) * width, width))
            }
            end = max(end, e)
        }
        return end
    }

    /// Whether object `i`'s variable-width values lie within their columns' bytes (their end
    /// offsets rise at `i`): enough for a reader of that one object, on a cluster validated
    /// with `rising: false`.
    func rangesRise(at i: Int, table: StoreTable) -> Bool {
        let base = bytes.baseAddress!
        for c in 0..<columnCount where table.layout.clusterKinds[c] == .variable {
            let (offset, width, nulls) = ClusterFormat.descriptor(base, c)
            let ends = offset + (nulls ? (count + 7) >> 3 : 0)
            let start = i == 0 ? 0 : clusterLoad(base, ends + (i - 1) * width, width)
            let end = clusterLoad(base, ends + i * width, width)
            if start > end || end > clusterLoad(base, ends + (count - 1) * width, width) { return false }
        }
        return true
    }

    /// The key of object `i`.
    @inline(__always)
    func key(at i: Int) -> Int64 {
        if keyWidth == 0 { return firstKey &+ Int64(i) }
        let k0 = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize
        return firstKey &+ Int64(bitPattern: clusterLoad(bytes.baseAddress!, k0 + i * keyWidth, keyWidth))
    }

    /// Where `key` is (found) or would go to keep the keys in order.
    ///
    /// An interpolation search: the first probe is where `key` would sit if the cluster's keys
    /// were spread evenly between its first and last, then steps of 1, 2, 4, ... bracket it
    /// and a binary search ends it. A cluster's keys are nearly always even (a run of ids, or
    /// ids drawn at random), so one or two probes find a key that a binary search took eight
    /// for (W1's clusters of about 280 keys); uneven keys cost at most about twice the binary
    /// search's probes. Keys that do not rise (a damaged cluster) give a wrong answer, never an
    /// out-of-bounds read: every probe lies inside the bracket, which only narrows.
    func position(of key: Int64) -> (index: Int, found: Bool) {
        if key < firstKey { return (0, false) }
        let target = UInt64(bitPattern: key &- firstKey)
        if keyWidth == 0 { return target < UInt64(count) ? (Int(target), true) : (count, false) }
        let k0 = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize
        let base = bytes.baseAddress!
        let width = keyWidth
        @inline(__always) func delta(_ i: Int) -> UInt64 { clusterLoad(base, k0 + i * width, width) }
        // Keys below `lo` are below the target, keys at or past `hi` above it.
        var lo = 0
        var hi = count
        let last = delta(count - 1)
        if target >= last { return target == last ? (count - 1, true) : (count, false) }
        if count > 8 {
            let g = Self.interpolated(target, last: last, count: count)
            let d = delta(g)
            if d == target { return (g, true) }
            var step = 1
            if d < target {
                lo = g + 1
                while g + step < hi {
                    let j = g + step
                    let dj = delta(j)
                    if dj == target { return (j, true) }
                    if dj > target { hi = j; break }
                    lo = j + 1
                    step <<= 1
                }
            } else {
                hi = g
                while g - step >= lo {
                    let j = g - step
                    let dj = delta(j)
                    if dj == target { return (j, true) }
                    if dj < target { lo = j + 1; break }
                    hi = j
                    step <<= 1
                }
            }
        }
        while lo < hi {
            let mid = (lo + hi) >> 1
            let d = delta(mid)
            if d < target { lo = mid + 1 } else if d > target { hi = mid } else { return (mid, true) }
        }
        return (lo, false)
    }

    /// Where `position(of: key)` looks first: where `key` would be if the cluster's keys were
    /// spread evenly between its first and last (0 below the first key, `count - 1` at or past
    /// the last). A hint for prefetching; it reads the last key only.
    @inline(__always)
    func likelyPosition(of key: Int64) -> Int {
        if key < firstKey { return 0 }
        let target = UInt64(bitPattern: key &- firstKey)
        if keyWidth == 0 { return target < UInt64(count) ? Int(target) : count - 1 }
        let k0 = ClusterFormat.headerSize + columnCount * ClusterFormat.descriptorSize
        let last = clusterLoad(bytes.baseAddress!, k0 + (count - 1) * keyWidth, keyWidth)
        if target >= last { return count - 1 }
        return Self.interpolated(target, last: last, count: count)
    }

    /// Where key delta `target` would sit among `count` keys spread evenly from delta 0 to
    /// `last`: `position(of:)`'s first probe and `likelyPosition(of:)`'s answer. For `target <
    /// last` it lies in 0..<count - 1.
    @inline(__always)
    static func interpolated(_ target: UInt64, last: UInt64, count: Int) -> Int {
        Int(Double(target) / Double(last) * Double(count - 1))
    }

    /// Asks the processor to start loading object `i`'s key and the end offsets of its
    /// variable-width columns (of the first `ClusterFormat.prefetchedColumns`), which a lookup reads after finding its
    /// position: started at the likely position, their misses overlap the search's own. A hint
    /// only: nothing is read and no result changes; for any `i` below `count` the addresses
    /// stay inside the cluster's columns as the view checked them.
    @inline(__always)
    func prefetchSlots(at i: Int, table t: StoreTable) {
        Self.prefetchSlots(bytes.baseAddress!, count, columnCount, keyWidth, at: i, table: t)
    }

    /// `prefetchSlots(at:table:)` on the cluster at `p` of `m` objects, `n` stored columns and
    /// keys of `kw` bytes, which need not have been checked (a prefetch never faults).
    @inline(__always)
    static func prefetchSlots(
        _ p: UnsafeRawPointer, _ m: Int, _ n: Int, _ kw: Int, at i: Int, table t: StoreTable
    ) {
        if kw != 0 { prefetchForRead(p + ClusterFormat.headerSize + n * ClusterFormat.descriptorSize + i * kw) }
        for c in 0..<min(n, ClusterFormat.prefetchedColumns) where t.layout.clusterKinds[c] == .variable {
            let d = ClusterFormat.descriptor(p, c)
            prefetchForRead(p + d.offset + (d.nulls ? (m + 7) >> 3 : 0) + i * d.width)
        }
    }

    /// Before the cluster `bytes` is checked: starts loading its last key, which
    /// `likelyPosition(of:)` and `position(of:)` read first, in a line the view's column checks do
    /// not read, so that its miss overlaps theirs. Reads the header only; a hint (a damaged header
    /// only makes it ask for the wrong line).
    @inline(__always)
    static func prefetchLastKey(_ bytes: UnsafeRawBufferPointer) {
        guard let p = bytes.baseAddress, bytes.count >= ClusterFormat.headerSize else { return }
        let m = Int(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self)))
        let n = Int(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let kw = Int(p.load(fromByteOffset: 4, as: UInt8.self))
        if kw != 0, m >= 1 {
            prefetchForRead(p + ClusterFormat.headerSize + n * ClusterFormat.descriptorSize + m * kw - kw)
        }
    }

    /// Before the cluster `bytes` is checked or its keys read: guesses where `key` lies in it
    /// from its first key and `upper`, a key above all of its keys (the next cluster's first
    /// key), as if its keys were spread evenly between them, and starts loading what a lookup
    /// reads there (`prefetchSlots`), and the cluster's last key (`prefetchLastKey`, which it
    /// does alone when there is no guess). Without it the guess waits for the cluster's last key,
    /// a miss of its own. Reads the header only; a hint: nothing it does changes a result, and a
    /// damaged header only makes it ask for the wrong lines.
    @inline(__always)
    static func prefetchGuess(_ bytes: UnsafeRawBufferPointer, key: Int64, upper: Int64, table t: StoreTable) {
        guard let g = guess(bytes, key: key, upper: upper, table: t) else { return prefetchLastKey(bytes) }
        let p = bytes.baseAddress!
        prefetchSlots(p, g.count, g.columnCount, g.keyWidth, at: g.position, table: t)
        if g.keyWidth != 0 {
            let keys = ClusterFormat.headerSize + g.columnCount * ClusterFormat.descriptorSize
            prefetchForRead(p + keys + (g.count - 1) * g.keyWidth)
        }
    }

    /// `prefetchGuess`'s guess: a position below the cluster's object count, or nil when the
    /// header is too short or does not allow one (no objects, too many columns, `key` below its
    /// first key or not below `upper`).
    @inline(__always)
    static func guessedPosition(_ bytes: UnsafeRawBufferPointer, key: Int64, upper: Int64, table t: StoreTable) -> Int?
    {
        guess(bytes, key: key, upper: upper, table: t)?.position
    }

    /// `guessedPosition`'s guess with the header fields it read, parsed once for
    /// `prefetchGuess`: object count, stored columns, key width (unchecked).
    @inline(__always)
    private static func guess(
        _ bytes: UnsafeRawBufferPointer, key: Int64, upper: Int64, table t: StoreTable
    ) -> (
        position: Int, count: Int, columnCount: Int, keyWidth: Int
    )? {
        guard let p = bytes.baseAddress, bytes.count >= ClusterFormat.headerSize else { return nil }
        let m = Int(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self)))
        let n = Int(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let first = Int64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        guard m >= 1, n <= t.layout.columnCount,
            ClusterFormat.headerSize + n * ClusterFormat.descriptorSize <= bytes.count,
            key >= first, upper > key
        else { return nil }
        // (key - first) * m / (upper - first), exact (a run bounded by the key after its last
        // guesses every position right): below m, since key < upper.
        let span = UInt64(bitPattern: upper &- first)
        let product = UInt64(bitPattern: key &- first).multipliedFullWidth(by: UInt64(m))
        return (
            min(m - 1, Int(span.dividingFullWidth(product).quotient)), m, n,
            Int(p.load(fromByteOffset: 4, as: UInt8.self))
        )
    }

    /// The number of objects in the cluster `bytes` (0 when it is too short to say).
    @inline(__always)
    static func objectCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.count >= 2 ? Int(UInt16(littleEndian: bytes.loadUnaligned(as: UInt16.self))) : 0
    }
}
