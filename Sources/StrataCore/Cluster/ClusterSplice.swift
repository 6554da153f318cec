// Inserting one object into an encoded cluster without decoding it: each column's bytes are
// copied around the new value, as a realm-core cluster shifts its arrays. It applies when the
// cluster's encoding can take the new object with local changes (integer columns and keys are
// rebased or widened in the copy); a null needs the column's null bitmap, and the result must
// fit the leaf's inline limit (an overfull result is split by slicing); otherwise the caller decodes the cluster with
// `ClusterEditor`, which re-encodes and splits. Both produce clusters that read the same.
//
// Measured (callgrind, `strata-bench w1` bulk_insert at N = 100k): see Docs/Performance.md.

enum ClusterSplice {
    /// Writes cluster `view` with object `key` (`values`, one per column) inserted at position
    /// `p` into `out`, and returns its length; nil when the encoding cannot hold the object as
    /// it is, or the result would not fit `out`. `view` must be fully validated.
    static func insert(
        _ view: ClusterView, at p: Int, key: Int64, values: [StoreValue], table: StoreTable,
        into out: UnsafeMutableRawBufferPointer
    ) -> Int? {
        let layout = table.layout
        let m = view.count
        let n = view.columnCount
        guard n == layout.columnCount, m < Int(UInt16.max), p >= 1, values.count == n else { return nil }
        let src = view.bytes.baseAddress!
        let dst = out.baseAddress!
        let cap = out.count
        let oldKw = view.keyWidth
        let delta = UInt64(bitPattern: key &- view.firstKey)
        // The key width grows when the new key needs it (a dense cluster takes key bytes when
        // the new key leaves a gap).
        // The narrowest key width for the keys after the insert: none when they are dense.
        let lastDelta = UInt64(bitPattern: view.key(at: m - 1) &- view.firstKey)
        let span = max(delta, lastDelta)
        let kw = span == UInt64(m) ? 0 : max(1, clusterWidth(span))
        let descriptors = ClusterFormat.headerSize
        let keysStart = descriptors + n * ClusterFormat.descriptorSize
        var o = keysStart + (m + 1) * kw
        guard o <= cap else { return nil }
        // Header.
        dst.storeBytes(of: UInt16(m + 1).littleEndian, as: UInt16.self)
        dst.storeBytes(of: UInt16(n).littleEndian, toByteOffset: 2, as: UInt16.self)
        dst.storeBytes(of: UInt32(kw).littleEndian, toByteOffset: 4, as: UInt32.self)
        dst.storeBytes(of: view.firstKey.littleEndian, toByteOffset: 8, as: Int64.self)
        // Keys.
        if kw > 0 {
            let kd = dst + keysStart
            if kw == oldKw {
                let ks = src + keysStart
                kd.copyMemory(from: ks, byteCount: p * kw)
                (kd + (p + 1) * kw).copyMemory(from: ks + p * kw, byteCount: (m - p) * kw)
            } else {
                for j in 0..<m {
                    storeWidth(UInt64(bitPattern: view.key(at: j) &- view.firstKey), kw, kd + (j < p ? j : j + 1) * kw)
                }
            }
            storeWidth(delta, kw, kd + p * kw)
        }
        let newBitmap = (m + 1 + 7) >> 3
        // Areas are written in the table's area order (FORMAT.md): a column without an area
        // gets a zero descriptor.
        for c in 0..<n where layout.clusterKinds[c] == .none {
            ClusterFormat.setDescriptor(dst, c, offset: 0, width: 0, nulls: false)
        }
        for c in layout.areaOrder {
            let kind = layout.clusterKinds[c]
            let value = values[c]
            let isNull = value.isNull
            let d = ClusterFormat.descriptor(src, c)
            if isNull, !d.nulls { return nil }
            let start = o
            var s = d.offset
            if d.nulls {
                guard o + newBitmap <= cap else { return nil }
                insertBit(src + s, m, p, isNull, dst + o)
                o += newBitmap
                s += (m + 7) >> 3
            }
            var width = d.width
            switch kind {
            case .none:
                break
            case .int:
                var v: Int64 = 0
                if !isNull {
                    switch (layout.types[c], value) {
                    case (.int, .int(let i)), (.link, .link(let i)): v = i
                    default: return nil
                    }
                }
                let base = Int64(littleEndian: src.loadUnaligned(fromByteOffset: s, as: Int64.self))
                let dv = isNull ? 0 : UInt64(bitPattern: v &- base)
                if isNull || (v >= base && clusterWidth(dv) <= width) {
                    guard o + 8 + (m + 1) * width <= cap else { return nil }
                    (dst + o).copyMemory(from: src + s, byteCount: 8 + p * width)
                    storeWidth(dv, width, dst + o + 8 + p * width)
                    (dst + o + 8 + (p + 1) * width).copyMemory(
                        from: src + s + 8 + p * width, byteCount: (m - p) * width)
                    o += 8 + (m + 1) * width
                } else {
                    // A new minimum becomes the base (every delta grows by the difference), or
                    // a new maximum widens the deltas: rewrite them.
                    let newBase = min(base, v)
                    let shift = UInt64(bitPattern: base &- newBase)
                    var maxDelta: UInt64 = 0
                    for j in 0..<m { maxDelta = max(maxDelta, clusterLoad(src, s + 8 + j * width, width)) }
                    guard maxDelta <= UInt64.max - shift else { return nil }
                    let newWidth = max(clusterWidth(maxDelta + shift), clusterWidth(UInt64(bitPattern: v &- newBase)))
                    guard o + 8 + (m + 1) * newWidth <= cap else { return nil }
                    (dst + o).storeBytes(of: newBase.littleEndian, as: Int64.self)
                    for j in 0..<m {
                        var dj = clusterLoad(src, s + 8 + j * width, width)
                        // A null's delta stays as it was (it reads as null, whatever its bytes).
                        if !d.nulls
                            || src.load(fromByteOffset: d.offset + j >> 3, as: UInt8.self) & (1 << UInt8(j & 7)) == 0
                        {
                            dj += shift
                        }
                        storeWidth(dj, newWidth, dst + o + 8 + (j < p ? j : j + 1) * newWidth)
                    }
                    storeWidth(UInt64(bitPattern: v &- newBase), newWidth, dst + o + 8 + p * newWidth)
                    width = newWidth
                    o += 8 + (m + 1) * newWidth
                }
            case .fixed:
                guard o + (m + 1) * width <= cap else { return nil }
                (dst + o).copyMemory(from: src + s, byteCount: p * width)
                let at = dst + o + p * width
                if isNull {
                    at.initializeMemory(as: UInt8.self, repeating: 0, count: width)
                } else if !storeFixedSlot(layout.types[c], value, at: at) {
                    return nil
                }
                (at + width).copyMemory(from: src + s + p * width, byteCount: (m - p) * width)
                o += (m + 1) * width
            case .variable:
                let oldEnds = s
                let oldData = s + m * width
                let split = Int(clusterLoad(src, oldEnds + (p - 1) * width, width))
                let total = Int(clusterLoad(src, oldEnds + (m - 1) * width, width))
                // The view's check covers the area up to `total`; `split` must not pass it.
                guard split <= total else { return nil }
                // The new value's bytes: strings and data directly, other values encoded.
                var encoded: [UInt8] = []
                var text: String? = nil
                if !isNull {
                    // The column's collection kind and type from the layout (copying its
                    // description would retain its strings).
                    switch (layout.collections[c], layout.types[c], value) {
                    case (.none, .string, .string(let str)): text = str
                    case (.none, .data, .data(let bytes)): encoded = bytes
                    case (.none, .mixed, _): ValueCodec.write(value, &encoded)
                    default: return nil  // collections: checked element by element on the slow path
                    }
                }
                let ok: Bool
                if var text {
                    ok = text.withUTF8 {
                        placeVariable(
                            UnsafeRawBufferPointer($0), src, oldEnds, oldData, m, p, width, split, total, dst, &o, cap)
                    }
                } else {
                    ok = encoded.withUnsafeBytes {
                        placeVariable($0, src, oldEnds, oldData, m, p, width, split, total, dst, &o, cap)
                    }
                }
                guard ok else { return nil }
            }
            ClusterFormat.setDescriptor(dst, c, offset: start, width: width, nulls: d.nulls)
        }
        return o
    }

    /// Writes a variable-width column with `bytes` inserted as object `p` at `dst + o`; false
    /// when the offsets' width cannot hold the new total or the result would pass `cap`.
    @inline(__always)
    static func placeVariable(
        _ bytes: UnsafeRawBufferPointer, _ src: UnsafeRawPointer, _ oldEnds: Int, _ oldData: Int,
        _ m: Int, _ p: Int, _ width: Int, _ split: Int, _ total: Int,
        _ dst: UnsafeMutableRawPointer, _ o: inout Int, _ cap: Int
    ) -> Bool {
        let len = bytes.count
        if width == 2, total + len > 0xFFFF { return false }
        guard o + (m + 1) * width + total + len <= cap else { return false }
        let ends = dst + o
        ends.copyMemory(from: src + oldEnds, byteCount: p * width)
        storeWidth(UInt64(split + len), width, ends + p * width)
        if width == 2 {
            for j in p..<m {
                let e = UInt16(littleEndian: src.loadUnaligned(fromByteOffset: oldEnds + 2 * j, as: UInt16.self))
                (ends + 2 * (j + 1)).storeBytes(
                    of: (e &+ UInt16(truncatingIfNeeded: len)).littleEndian, as: UInt16.self)
            }
        } else {
            for j in p..<m {
                storeWidth(clusterLoad(src, oldEnds + j * width, width) + UInt64(len), width, ends + (j + 1) * width)
            }
        }
        let data = ends + (m + 1) * width
        data.copyMemory(from: src + oldData, byteCount: split)
        if len > 0 { (data + split).copyMemory(from: bytes.baseAddress!, byteCount: len) }
        (data + split + len).copyMemory(from: src + oldData + split, byteCount: total - split)
        o += (m + 1) * width + total + len
        return true
    }

    @inline(__always)
    static func storeWidth(_ v: UInt64, _ width: Int, _ at: UnsafeMutableRawPointer) {
        switch width {
        case 1: at.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
        case 2: at.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, as: UInt16.self)
        case 4: at.storeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, as: UInt32.self)
        case 8: at.storeBytes(of: v.littleEndian, as: UInt64.self)
        default: break
        }
    }

    /// Writes the bitmap of `m` bits at `old` with `bit` inserted at position `p` to `out`
    /// (ceil((m + 1) / 8) bytes).
    @inline(__always)
    static func insertBit(_ old: UnsafeRawPointer, _ m: Int, _ p: Int, _ bit: Bool, _ out: UnsafeMutableRawPointer) {
        let bytes = (m + 1 + 7) >> 3
        out.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        for j in 0...m {
            let set: Bool
            if j < p {
                set = old.load(fromByteOffset: j >> 3, as: UInt8.self) & (1 << UInt8(j & 7)) != 0
            } else if j == p {
                set = bit
            } else {
                set = old.load(fromByteOffset: (j - 1) >> 3, as: UInt8.self) & (1 << UInt8((j - 1) & 7)) != 0
            }
            if set {
                let b = out.load(fromByteOffset: j >> 3, as: UInt8.self)
                out.storeBytes(of: b | (1 << UInt8(j & 7)), toByteOffset: j >> 3, as: UInt8.self)
            }
        }
    }
}

extension ClusterSplice {
    /// Writes objects `range` of cluster `view` as a cluster of their own into `out` and returns
    /// its length, or nil when it does not fit. Integer columns keep their base and width, and
    /// variable-width columns their offset width (valid, if not always the narrowest); keys that
    /// turn out dense drop their key bytes, and a null bitmap without nulls is dropped.
    static func slice(
        _ view: ClusterView, _ range: Range<Int>, table: StoreTable, into out: UnsafeMutableRawBufferPointer
    ) -> Int? {
        let layout = table.layout
        let m = view.count
        let n = view.columnCount
        let lo = range.lowerBound, hi = range.upperBound
        let count = range.count
        guard count >= 1, hi <= m else { return nil }
        let src = view.bytes.baseAddress!
        let dst = out.baseAddress!
        let cap = out.count
        let first = view.key(at: lo)
        let span = UInt64(bitPattern: view.key(at: hi - 1) &- first)
        let kw = span == UInt64(count - 1) ? 0 : max(1, clusterWidth(span))
        let descriptors = ClusterFormat.headerSize
        let keysStart = descriptors + n * ClusterFormat.descriptorSize
        var o = keysStart + count * kw
        guard o <= cap else { return nil }
        dst.storeBytes(of: UInt16(count).littleEndian, as: UInt16.self)
        dst.storeBytes(of: UInt16(n).littleEndian, toByteOffset: 2, as: UInt16.self)
        dst.storeBytes(of: UInt32(kw).littleEndian, toByteOffset: 4, as: UInt32.self)
        dst.storeBytes(of: first.littleEndian, toByteOffset: 8, as: Int64.self)
        if kw > 0 {
            for i in 0..<count {
                storeWidth(UInt64(bitPattern: view.key(at: lo + i) &- first), kw, dst + keysStart + i * kw)
            }
        }
        for c in 0..<n where layout.clusterKinds[c] == .none {
            ClusterFormat.setDescriptor(dst, c, offset: 0, width: 0, nulls: false)
        }
        for c in layout.areaOrder where c < n {
            let (offset, width, nulls) = ClusterFormat.descriptor(src, c)
            let start = o
            var s = offset
            var keepsNulls = false
            if nulls {
                var any = false
                for j in lo..<hi
                where src.load(fromByteOffset: offset + j >> 3, as: UInt8.self) & (1 << UInt8(j & 7)) != 0 {
                    any = true; break
                }
                if any {
                    let bytes = (count + 7) >> 3
                    guard o + bytes <= cap else { return nil }
                    (dst + o).initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                    for j in lo..<hi
                    where src.load(fromByteOffset: offset + j >> 3, as: UInt8.self) & (1 << UInt8(j & 7)) != 0 {
                        let i = j - lo
                        let b = (dst + o).load(fromByteOffset: i >> 3, as: UInt8.self)
                        (dst + o).storeBytes(of: b | (1 << UInt8(i & 7)), toByteOffset: i >> 3, as: UInt8.self)
                    }
                    o += bytes
                    keepsNulls = true
                }
                s += (m + 7) >> 3
            }
            switch layout.clusterKinds[c] {
            case .none:
                break
            case .int:
                guard o + 8 + count * width <= cap else { return nil }
                (dst + o).copyMemory(from: src + s, byteCount: 8)
                (dst + o + 8).copyMemory(from: src + s + 8 + lo * width, byteCount: count * width)
                o += 8 + count * width
            case .fixed:
                guard o + count * width <= cap else { return nil }
                (dst + o).copyMemory(from: src + s + lo * width, byteCount: count * width)
                o += count * width
            case .variable:
                let from = lo == 0 ? 0 : clusterLoad(src, s + (lo - 1) * width, width)
                let to = clusterLoad(src, s + (hi - 1) * width, width)
                // Offsets that do not rise (a corrupt source) must not send the copy outside the area.
                guard from <= to, to <= clusterLoad(src, s + (m - 1) * width, width) else { return nil }
                let bytes = Int(to - from)
                guard o + count * width + bytes <= cap else { return nil }
                for i in 0..<count {
                    storeWidth(clusterLoad(src, s + (lo + i) * width, width) &- from, width, dst + o + i * width)
                }
                (dst + o + count * width).copyMemory(from: src + s + m * width + Int(from), byteCount: bytes)
                o += count * width + bytes
            }
            ClusterFormat.setDescriptor(dst, c, offset: start, width: width, nulls: keepsNulls)
        }
        return o
    }
}

extension ClusterSplice {
    /// One contiguous run of a cluster's bytes in an in-place insert: old bytes `[start, end)`
    /// keep `[start, start + head)` and `[start + tail, end)` (tail >= head), with `count` new
    /// bytes from the scratch at `from` between them. After the insert the run starts `shift`
    /// bytes later (the growth of the runs before it).
    struct Piece {
        var start: Int
        var end: Int
        var head: Int
        var tail: Int
        var from: Int
        var count: Int
        /// The column whose descriptor offset is this piece's start, or -1.
        var column: Int
        /// Variable-width end offsets: the kept tail holds offsets of this width that grow by
        /// `adjustBy` (the new object's byte length). 0 for other pieces.
        var adjustWidth: Int
        var adjustBy: UInt64

        var growth: Int { count - (tail - head) }
    }

    /// Inserts object `key` (`values`, one per column) at position `p` of the cluster in
    /// `bytes` where it stands, using the reserve after its last area (FORMAT.md, "Clusters":
    /// the bytes after the areas up to the value's end). Every area moves up by the growth of
    /// the areas before it, so the work is one pass of `memmove` over the cluster, with no copy
    /// of the cluster and no move of the leaf's other cells.
    ///
    /// Returns false, having changed nothing, when the insert needs more than that: a key or
    /// integer that does not fit its column's width or base, a first null, a collection, areas
    /// not laid out back to back, too little reserve. `view` is `bytes` validated (extents).
    /// - Parameters:
    ///   - scratch: room for the new object's bytes (they must fit it).
    ///   - pieces: reused storage for the pieces.
    static func insertInPlace(
        _ bytes: UnsafeMutableRawBufferPointer, _ view: ClusterView, at p: Int, key: Int64,
        values: [StoreValue], table: StoreTable, maxObjects: Int,
        scratch: UnsafeMutableRawBufferPointer, pieces: inout [Piece]
    ) -> Bool {
        // At most one piece for the keys and three per column (a null bitmap, then the values,
        // or the end offsets and the bytes of a variable-width column).
        let capacity = 1 + 3 * view.columnCount
        if pieces.count < capacity {
            pieces = Array(
                repeating: Piece(
                    start: 0, end: 0, head: 0, tail: 0, from: 0, count: 0, column: -1, adjustWidth: 0, adjustBy: 0),
                count: capacity)
        }
        return pieces.withUnsafeMutableBufferPointer { room in
            insertInPlace(
                bytes, view, at: p, key: key, values: values, table: table, maxObjects: maxObjects, scratch: scratch,
                pieces: room.baseAddress!)
        }
    }

    /// `insertInPlace` with room for `1 + 3 * view.columnCount` pieces at `pieces`.
    private static func insertInPlace(
        _ bytes: UnsafeMutableRawBufferPointer, _ view: ClusterView, at p: Int, key: Int64,
        values: [StoreValue], table: StoreTable, maxObjects: Int,
        scratch: UnsafeMutableRawBufferPointer, pieces: UnsafeMutablePointer<Piece>
    ) -> Bool {
        let layout = table.layout
        let m = view.count
        let n = view.columnCount
        guard n == layout.columnCount, m < maxObjects, m < Int(UInt16.max), p >= 1, p <= m, values.count == n,
            view.bytes.baseAddress == UnsafeRawPointer(bytes.baseAddress), view.bytes.count == bytes.count
        else { return false }
        let base = bytes.baseAddress!
        let room = scratch.baseAddress!
        let kw = view.keyWidth
        let delta = UInt64(bitPattern: key &- view.firstKey)
        // Keys: dense ones stay dense only for the next key at the end; others need the width.
        if kw == 0 {
            guard p == m, delta == UInt64(m) else { return false }
        } else {
            guard clusterWidth(delta) <= kw else { return false }
        }
        var count = 0
        var used = 0
        var growth = 0
        @inline(__always) func add(_ piece: Piece) {
            pieces[count] = piece
            count += 1
            growth += piece.growth
        }
        let keysStart = ClusterFormat.headerSize + n * ClusterFormat.descriptorSize
        var o = keysStart
        if kw > 0 {
            storeWidth(delta, kw, room)
            used = kw
            add(
                Piece(
                    start: o, end: o + m * kw, head: p * kw, tail: p * kw, from: 0, count: kw, column: -1,
                    adjustWidth: 0, adjustBy: 0))
            o += m * kw
        }
        let oldBitmap = (m + 7) >> 3, newBitmap = (m + 1 + 7) >> 3
        for c in layout.areaOrder {
            let value = values[c]
            let isNull = value.isNull
            let d = ClusterFormat.descriptor(base, c)
            // Areas back to back in this order (as every encoder writes them), so that each
            // moves up by the growth before it and nothing else lies between.
            guard d.offset == o, !isNull || d.nulls else { return false }
            var s = o
            if d.nulls {
                guard used + newBitmap <= scratch.count, s + oldBitmap <= bytes.count else { return false }
                insertBit(base + s, m, p, isNull, room + used)
                add(
                    Piece(
                        start: s, end: s + oldBitmap, head: 0, tail: oldBitmap, from: used, count: newBitmap, column: c,
                        adjustWidth: 0, adjustBy: 0))
                used += newBitmap
                s += oldBitmap
            }
            let first = !d.nulls
            let width = d.width
            switch layout.clusterKinds[c] {
            case .none:
                return false
            case .int:
                var dv: UInt64 = 0
                if !isNull {
                    let v: Int64
                    switch (layout.types[c], value) {
                    case (.int, .int(let i)), (.link, .link(let i)): v = i
                    default: return false
                    }
                    guard s + 8 <= bytes.count else { return false }
                    let b = Int64(littleEndian: base.loadUnaligned(fromByteOffset: s, as: Int64.self))
                    dv = UInt64(bitPattern: v &- b)
                    guard v >= b, clusterWidth(dv) <= width else { return false }
                }
                guard used + width <= scratch.count else { return false }
                storeWidth(dv, width, room + used)
                add(
                    Piece(
                        start: s, end: s + 8 + m * width, head: 8 + p * width, tail: 8 + p * width, from: used,
                        count: width,
                        column: first ? c : -1, adjustWidth: 0, adjustBy: 0))
                used += width
                s += 8 + m * width
            case .fixed:
                guard used + width <= scratch.count else { return false }
                if isNull {
                    (room + used).initializeMemory(as: UInt8.self, repeating: 0, count: width)
                } else if !storeFixedSlot(layout.types[c], value, at: room + used) {
                    return false
                }
                add(
                    Piece(
                        start: s, end: s + m * width, head: p * width, tail: p * width, from: used, count: width,
                        column: first ? c : -1, adjustWidth: 0, adjustBy: 0))
                used += width
                s += m * width
            case .variable:
                guard s + m * width <= bytes.count else { return false }
                let split = Int(clusterLoad(base, s + (p - 1) * width, width))
                let total = Int(clusterLoad(base, s + (m - 1) * width, width))
                guard split <= total else { return false }
                // The new end offset, then the value's bytes.
                let endAt = used
                used += width
                var len = 0
                if !isNull {
                    switch (layout.collections[c], layout.types[c], value) {
                    case (.none, .string, .string(var text)):
                        let ok = text.withUTF8 { utf8 in
                            guard used + utf8.count <= scratch.count else { return false }
                            if let b = utf8.baseAddress { (room + used).copyMemory(from: b, byteCount: utf8.count) }
                            len = utf8.count
                            return true
                        }
                        guard ok else { return false }
                    case (.none, .data, .data(let data)):
                        guard used + data.count <= scratch.count else { return false }
                        data.withUnsafeBytes {
                            if let b = $0.baseAddress { (room + used).copyMemory(from: b, byteCount: data.count) }
                        }
                        len = data.count
                    default:
                        return false  // AnyRealmValue and collections take the copying splice
                    }
                }
                guard width == 4 || total + len <= 0xFFFF, endAt + width <= scratch.count else { return false }
                storeWidth(UInt64(split + len), width, room + endAt)
                add(
                    Piece(
                        start: s, end: s + m * width, head: p * width, tail: p * width, from: endAt, count: width,
                        column: first ? c : -1, adjustWidth: width, adjustBy: UInt64(len)))
                let data = s + m * width
                add(
                    Piece(
                        start: data, end: data + total, head: split, tail: split, from: used, count: len,
                        column: -1, adjustWidth: 0, adjustBy: 0))
                used += len
                s = data + total
            }
            o = s
        }
        // The reserve must hold the growth.
        guard o <= bytes.count, growth <= bytes.count - o else { return false }
        // Last piece first. The pieces lie back to back, so a piece's kept tail and the next
        // piece's kept head are one run of bytes that moves up by the growth of the pieces up to
        // this one: one move per piece, into bytes that the runs after it have already left (or
        // the reserve), then the piece's new bytes just below the moved run.
        var shift = growth
        for r in (0..<count).reversed() {
            let piece = pieces[r]
            let runStart = piece.start + piece.tail
            let runEnd = r + 1 < count ? pieces[r + 1].start + pieces[r + 1].head : piece.end
            let tailLength = piece.end - runStart
            let tailTo = base + runStart + shift
            if runEnd > runStart, shift > 0 { tailTo.copyMemory(from: base + runStart, byteCount: runEnd - runStart) }
            shift -= piece.growth
            let to = piece.start + shift
            if piece.count > 0 { (base + to + piece.head).copyMemory(from: room + piece.from, byteCount: piece.count) }
            if piece.adjustWidth == 2 {
                for j in 0..<tailLength / 2 {
                    let e = UInt16(littleEndian: tailTo.loadUnaligned(fromByteOffset: 2 * j, as: UInt16.self))
                    tailTo.storeBytes(
                        of: (e &+ UInt16(truncatingIfNeeded: piece.adjustBy)).littleEndian, toByteOffset: 2 * j,
                        as: UInt16.self)
                }
            } else if piece.adjustWidth == 4 {
                for j in 0..<tailLength / 4 {
                    let e = UInt32(littleEndian: tailTo.loadUnaligned(fromByteOffset: 4 * j, as: UInt32.self))
                    tailTo.storeBytes(
                        of: (e &+ UInt32(truncatingIfNeeded: piece.adjustBy)).littleEndian, toByteOffset: 4 * j,
                        as: UInt32.self)
                }
            }
            if piece.column >= 0 {
                (base + ClusterFormat.headerSize + piece.column * ClusterFormat.descriptorSize)
                    .storeBytes(of: UInt32(to).littleEndian, as: UInt32.self)
            }
        }
        base.storeBytes(of: UInt16(m + 1).littleEndian, as: UInt16.self)
        return true
    }
}
