// Changing a cluster: decode it into per-column arrays, insert, remove or set objects, and
// encode one or more clusters back. One editor lives in each write transaction and keeps its
// arrays' capacity from change to change, so an insert allocates nothing once warm.

/// A cluster decoded for editing, with every column of the table's current schema (columns an
/// older cluster lacks take their defaults, so writing it back upgrades it).
final class ClusterEditor {
    private(set) var table: StoreTable
    private(set) var keys: [Int64] = []
    /// Per column: `Int` and link values (kind `.int`).
    private var ints: [[Int64]]
    /// Per column: raw values, `slotSize` bytes each (kind `.fixed`).
    private var raw: [[UInt8]]
    /// Per column: the bytes of all values, and each value's end (kind `.variable`).
    private var varBytes: [[UInt8]]
    private var varEnds: [[Int]]
    /// Per column: which values are null.
    private var nulls: [[Bool]]

    init(table: StoreTable) {
        self.table = table
        (ints, raw, varBytes, varEnds, nulls) = ([], [], [], [], [])
        makeColumns(table.columns.count)
    }

    private func makeColumns(_ n: Int) {
        ints = Array(repeating: [], count: n)
        raw = Array(repeating: [], count: n)
        varBytes = Array(repeating: [], count: n)
        varEnds = Array(repeating: [], count: n)
        nulls = Array(repeating: [], count: n)
    }

    var count: Int { keys.count }

    /// Empties the editor for `table`, keeping capacity.
    func reset(_ table: StoreTable) {
        if table !== self.table {
            self.table = table
            makeColumns(table.columns.count)
        }
        keys.removeAll(keepingCapacity: true)
        for c in 0..<table.columns.count {
            ints[c].removeAll(keepingCapacity: true)
            raw[c].removeAll(keepingCapacity: true)
            varBytes[c].removeAll(keepingCapacity: true)
            varEnds[c].removeAll(keepingCapacity: true)
            nulls[c].removeAll(keepingCapacity: true)
        }
    }

    /// Loads a validated cluster of `table`.
    func load(_ view: ClusterView, table: StoreTable) {
        reset(table)
        let m = view.count
        for i in 0..<m { keys.append(view.key(at: i)) }
        let layout = table.layout
        let base = view.bytes.baseAddress!
        var reader = RowReader(table: table)
        reader.move(to: view, position: 0, key: view.firstKey)
        for c in 0..<table.columns.count {
            let kind = layout.clusterKinds[c]
            if kind == .none { continue }
            if c >= view.columnCount {
                // A column added after the cluster was written: its default for every object.
                let v = table.columns[c].defaultValue
                for _ in 0..<m { appendValue(c, v) }
                continue
            }
            let d = reader.descriptor(c)
            var start = d.offset
            if d.nulls {
                for i in 0..<m {
                    nulls[c].append(
                        base.load(fromByteOffset: d.offset + i >> 3, as: UInt8.self) & (1 << UInt8(i & 7)) != 0)
                }
                start += (m + 7) >> 3
            } else {
                nulls[c].append(contentsOf: repeatElement(false, count: m))
            }
            switch kind {
            case .none: break
            case .int:
                let b = Int64(littleEndian: base.loadUnaligned(fromByteOffset: start, as: Int64.self))
                let w = d.width
                for i in 0..<m { ints[c].append(b &+ Int64(bitPattern: clusterLoad(base, start + 8 + i * w, w))) }
            case .fixed:
                raw[c].append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: m * d.width))
            case .variable:
                let w = d.width
                for i in 0..<m { varEnds[c].append(Int(clusterLoad(base, start + i * w, w))) }
                let data = start + m * w
                varBytes[c].append(contentsOf: UnsafeRawBufferPointer(start: base + data, count: varEnds[c].last ?? 0))
            }
        }
    }

    // MARK: Values

    /// Appends column `c`'s value for a new last object (no type checks: for defaults and copies).
    private func appendValue(_ c: Int, _ v: StoreValue) {
        try? placeValue(c, nulls[c].count, v, inserting: true, check: false)
    }

    /// Writes `value` for object `i` of column `c`, inserting a new slot when `inserting`.
    /// - Throws: `StoreError.typeMismatch` / `.nullNotAllowed` (when `check`) naming the column.
    private func placeValue(_ c: Int, _ i: Int, _ value: StoreValue, inserting: Bool, check: Bool) throws(StoreError) {
        let layout = table.layout
        let kind = layout.clusterKinds[c]
        if kind == .none { return }
        let type = layout.types[c]
        if value.isNull {
            if check, !(table.nullable[c] || type == .mixed) {
                throw .nullNotAllowed(table: table.name, column: table.columns[c].name)
            }
        }
        let isNull = value.isNull
        switch kind {
        case .none: return
        case .int:
            var v: Int64 = 0
            if !isNull {
                switch (type, value) {
                case (.int, .int(let i)), (.link, .link(let i)): v = i
                default:
                    throw .typeMismatch(
                        table: table.name, column: table.columns[c].name, expected: "\(type)", found: value.kindName)
                }
            }
            if inserting { ints[c].insert(v, at: i) } else { ints[c][i] = v }
        case .fixed:
            let size = layout.slotSizes[c]
            var slot: (UInt64, UInt64) = (0, 0)
            if !isNull, !withUnsafeMutableBytes(of: &slot, { storeFixedSlot(type, value, at: $0.baseAddress!) }) {
                throw .typeMismatch(
                    table: table.name, column: table.columns[c].name, expected: "\(type)", found: value.kindName)
            }
            withUnsafeBytes(of: &slot) { s in
                let bytes = UnsafeRawBufferPointer(rebasing: s[0..<size])
                if inserting {
                    raw[c].insert(contentsOf: bytes, at: i * size)
                } else {
                    raw[c].withUnsafeMutableBytes { dst in
                        for j in 0..<size { dst[i * size + j] = bytes[j] }
                    }
                }
            }
        case .variable:
            var encoded: [UInt8] = []
            if !isNull {
                let column = table.columns[c]
                switch (column.collection, column.type, value) {
                case (.none, .string, .string(let str)): encoded.append(contentsOf: str.utf8)
                case (.none, .data, .data(let d)): encoded = d
                case (.none, .mixed, _): ValueCodec.write(value, &encoded)
                case (.list, _, .list(let elements)), (.set, _, .list(let elements)):
                    if check { for e in elements { try RowEncoder.checkElement(e, column, table) } }
                    ValueCodec.write(value, &encoded)
                case (.map, _, .map(let entries)):
                    if check { for e in entries.values { try RowEncoder.checkElement(e, column, table) } }
                    ValueCodec.write(value, &encoded)
                default:
                    throw .typeMismatch(
                        table: table.name, column: column.name, expected: "\(column.type)", found: value.kindName)
                }
            }
            let start = i == 0 ? 0 : varEnds[c][i - 1]
            if inserting {
                varBytes[c].insert(contentsOf: encoded, at: start)
                varEnds[c].insert(start, at: i)
                let delta = encoded.count
                varEnds[c].withUnsafeMutableBufferPointer { e in
                    for j in i..<e.count { e[j] += delta }
                }
            } else {
                let end = varEnds[c][i]
                varBytes[c].replaceSubrange(start..<end, with: encoded)
                let delta = encoded.count - (end - start)
                if delta != 0 {
                    varEnds[c].withUnsafeMutableBufferPointer { e in
                        for j in i..<e.count { e[j] += delta }
                    }
                }
            }
        }
        if inserting { nulls[c].insert(isNull, at: i) } else { nulls[c][i] = isNull }
    }

    // MARK: Edits

    /// Inserts object `key` with `values` (one per column) at position `i`.
    /// - Throws: `StoreError.typeMismatch` / `.nullNotAllowed` naming the column; the editor is
    ///   then inconsistent and must be reloaded or reset before further use.
    func insert(key: Int64, values: [StoreValue], at i: Int) throws(StoreError) {
        let n = table.columns.count
        precondition(values.count == n, "row of \(table.name) needs \(n) values, got \(values.count)")
        keys.insert(key, at: i)
        for c in 0..<n { try placeValue(c, i, values[c], inserting: true, check: true) }
    }

    /// Sets column `c` of object `i`.
    func set(column c: Int, at i: Int, to value: StoreValue) throws(StoreError) {
        try placeValue(c, i, value, inserting: false, check: true)
    }

    /// Appends `added` to the list (or set: the caller leaves out members) in column `c` of
    /// object `i` without decoding the stored elements: the element count in the stored value's
    /// header is raised and the new elements' encoding follows the last one (FORMAT.md, "Tagged
    /// values").
    /// - Throws: `.typeMismatch` when the column is not a list or set, the stored value is not
    ///   one, or an element does not fit the column; `.nullNotAllowed` for a null the column does
    ///   not take. Nothing has changed then.
    func appendToList(column c: Int, at i: Int, _ added: [StoreValue]) throws(StoreError) {
        let column = table.columns[c]
        guard table.layout.clusterKinds[c] == .variable, column.collection == .list || column.collection == .set else {
            throw .typeMismatch(
                table: table.name, column: column.name, expected: "a list", found: "\(column.collection)")
        }
        for e in added { try RowEncoder.checkElement(e, column, table) }
        if nulls[c][i] { return try placeValue(c, i, .list(added), inserting: false, check: false) }
        let start = i == 0 ? 0 : varEnds[c][i - 1]
        let end = varEnds[c][i]
        let header = 5
        let stored: UInt32? = varBytes[c].withUnsafeBytes { b in
            guard end - start >= header, b[start] == ValueCodec.listTag else { return nil }
            return UInt32(littleEndian: b.loadUnaligned(fromByteOffset: start + 1, as: UInt32.self))
        }
        guard let stored, UInt64(stored) + UInt64(added.count) <= UInt64(UInt32.max) else {
            throw .typeMismatch(table: table.name, column: column.name, expected: "a list", found: "another value")
        }
        var encoded: [UInt8] = []
        for e in added { ValueCodec.write(e, &encoded) }
        editCollection(c, i, start: start, count: stored + UInt32(added.count), replacing: end..<end, with: encoded)
    }

    /// Sets entry `key` of the map in column `c` of object `i` to `value` (removes it when
    /// nil) by editing the stored map's bytes: the other entries are skipped over, neither
    /// decoded nor written again; the entries stay in ascending key order (FORMAT.md, "Tagged
    /// values").
    /// - Returns: the value the entry held (nil when there was none), and whether the map
    ///   changed.
    /// - Throws: `.typeMismatch` when the column is not a map, the stored value is not one, or
    ///   `value` does not fit the column; `.nullNotAllowed` for a null the column does not take.
    ///   Nothing has changed then.
    func setMapEntry(
        column c: Int, at i: Int, key: String, _ value: StoreValue?
    ) throws(StoreError) -> (previous: StoreValue?, changed: Bool) {
        let column = table.columns[c]
        guard table.layout.clusterKinds[c] == .variable, column.collection == .map else {
            throw .typeMismatch(
                table: table.name, column: column.name, expected: "a map", found: "\(column.collection)")
        }
        if let value { try RowEncoder.checkElement(value, column, table) }
        if nulls[c][i] {
            guard let value else { return (nil, false) }
            try set(column: c, at: i, to: .map([key: value]))
            return (nil, true)
        }
        let start = i == 0 ? 0 : varEnds[c][i - 1]
        let end = varEnds[c][i]
        guard
            let place = varBytes[c].withUnsafeBytes({
                MapEntryPlace(find: key, in: UnsafeRawBufferPointer(rebasing: $0[start..<end]))
            })
        else {
            throw .typeMismatch(table: table.name, column: column.name, expected: "a map", found: "another value")
        }
        var replacement: [UInt8] = []
        let replaced: Range<Int>
        var count = place.count
        switch (place.previous, value) {
        case (nil, nil):
            return (nil, false)
        case (let previous?, let value?):
            guard previous != value else { return (previous, false) }
            ValueCodec.write(value, &replacement)
            replaced = place.valueStart..<place.entryEnd
        case (_?, nil):
            replaced = place.entryStart..<place.entryEnd
            count -= 1
        case (nil, let value?):
            appendString(key, &replacement)
            ValueCodec.write(value, &replacement)
            replaced = place.entryStart..<place.entryStart
            count += 1
        }
        editCollection(
            c, i, start: start, count: count,
            replacing: (start + replaced.lowerBound)..<(start + replaced.upperBound), with: replacement)
        return (place.previous, true)
    }

    /// Replaces elements `range` of the list in column `c` of object `i` with `added` by
    /// editing the stored list's bytes: the elements before the range are skipped over and the
    /// ones after it moved, neither decoded nor written again (FORMAT.md, "Tagged values").
    /// - Returns: the elements the range held.
    /// - Throws: `.typeMismatch` when the column is not a list, the stored value is not one or
    ///   is shorter than `range`, or an element does not fit the column; `.nullNotAllowed` for a
    ///   null the column does not take. Nothing has changed then.
    func spliceList(
        column c: Int, at i: Int, _ range: Range<Int>, _ added: [StoreValue]
    ) throws(StoreError)
        -> [StoreValue]
    {
        let column = table.columns[c]
        guard table.layout.clusterKinds[c] == .variable, column.collection == .list else {
            throw .typeMismatch(
                table: table.name, column: column.name, expected: "a list", found: "\(column.collection)")
        }
        for e in added { try RowEncoder.checkElement(e, column, table) }
        if nulls[c][i], range.isEmpty, range.lowerBound == 0 {
            try placeValue(c, i, .list(added), inserting: false, check: false)
            return []
        }
        let start = i == 0 ? 0 : varEnds[c][i - 1]
        let end = varEnds[c][i]
        let found: (count: UInt32, from: Int, to: Int, removed: [StoreValue])? =
            nulls[c][i]
            ? nil
            : varBytes[c].withUnsafeBytes { b in
                var r = ByteReader(UnsafeRawBufferPointer(rebasing: b[start..<end]))
                guard r.u8() == ValueCodec.listTag, let n = r.u32(), range.upperBound <= Int(n) else { return nil }
                for _ in 0..<range.lowerBound where !ValueCodec.skip(&r) { return nil }
                let from = r.offset
                var removed: [StoreValue] = []
                removed.reserveCapacity(range.count)
                for _ in range {
                    guard let v = ValueCodec.read(&r) else { return nil }
                    removed.append(v)
                }
                return (n, from, r.offset, removed)
            }
        guard let found else {
            throw .typeMismatch(
                table: table.name, column: column.name, expected: "a list of at least \(range.upperBound) elements",
                found: "another value")
        }
        var encoded: [UInt8] = []
        for e in added { ValueCodec.write(e, &encoded) }
        let count = found.count - UInt32(range.count) + UInt32(added.count)
        editCollection(
            c, i, start: start, count: count, replacing: (start + found.from)..<(start + found.to), with: encoded)
        return found.removed
    }

    /// Edits the stored list or map of object `i` in column `c`, whose tagged value starts at
    /// byte `start` of the column: writes `count` as its element count and replaces the bytes
    /// `range` (of the column) with `replacement`, moving the ends of the objects after it.
    private func editCollection(
        _ c: Int, _ i: Int, start: Int, count: UInt32, replacing range: Range<Int>, with replacement: [UInt8]
    ) {
        varBytes[c].withUnsafeMutableBytes { b in
            b.storeBytes(of: count.littleEndian, toByteOffset: start + 1, as: UInt32.self)
        }
        varBytes[c].replaceSubrange(range, with: replacement)
        let delta = replacement.count - range.count
        if delta != 0 {
            varEnds[c].withUnsafeMutableBufferPointer { e in
                for j in i..<e.count { e[j] += delta }
            }
        }
    }

    /// Removes object `i`.
    func remove(at i: Int) {
        keys.remove(at: i)
        let layout = table.layout
        for c in 0..<table.columns.count {
            switch layout.clusterKinds[c] {
            case .none: continue
            case .int: ints[c].remove(at: i)
            case .fixed:
                let size = layout.slotSizes[c]
                raw[c].removeSubrange(i * size..<(i + 1) * size)
            case .variable:
                let start = i == 0 ? 0 : varEnds[c][i - 1]
                let end = varEnds[c][i]
                varBytes[c].removeSubrange(start..<end)
                varEnds[c].remove(at: i)
                let delta = end - start
                if delta != 0 {
                    varEnds[c].withUnsafeMutableBufferPointer { e in
                        for j in i..<e.count { e[j] -= delta }
                    }
                }
            }
            nulls[c].remove(at: i)
        }
    }

    // MARK: Encoding

    /// Encodes objects `range` as one cluster into `out` (replacing its contents).
    func encode(_ range: Range<Int>, into out: inout [UInt8]) {
        let m = range.count
        precondition(m >= 1 && m <= Int(UInt16.max), "a cluster holds 1...65535 objects")
        let n = table.columns.count
        let layout = table.layout
        let lo = range.lowerBound, hi = range.upperBound
        out.removeAll(keepingCapacity: true)
        let first = keys[lo]
        let span = UInt64(bitPattern: keys[hi - 1] &- first)
        let kw = span == UInt64(m - 1) ? 0 : max(1, clusterWidth(span))
        appendLE(UInt16(m), &out)
        appendLE(UInt16(n), &out)
        out.append(UInt8(kw))
        out.append(0)
        appendLE(UInt16(0), &out)
        appendLE(UInt64(bitPattern: first), &out)
        assert(out.count == ClusterFormat.headerSize)
        RowEncoder.appendZeros(n * ClusterFormat.descriptorSize, to: &out)
        if kw > 0 {
            for i in range { appendWidth(UInt64(bitPattern: keys[i] &- first), kw, &out) }
        }
        for c in layout.areaOrder {
            let kind = layout.clusterKinds[c]
            if kind == .none { continue }
            let offset = out.count
            var width = 0
            var hasNulls = false
            for i in range where nulls[c][i] { hasNulls = true; break }
            if hasNulls {
                let b = out.count
                RowEncoder.appendZeros((m + 7) >> 3, to: &out)
                for i in range where nulls[c][i] { out[b + (i - lo) >> 3] |= 1 << UInt8((i - lo) & 7) }
            }
            switch kind {
            case .none: break
            case .int:
                var minV = Int64.max, maxV = Int64.min
                for i in range where !nulls[c][i] {
                    let v = ints[c][i]
                    if v < minV { minV = v }
                    if v > maxV { maxV = v }
                }
                if minV > maxV { minV = 0; maxV = 0 }
                width = clusterWidth(UInt64(bitPattern: maxV &- minV))
                appendLE(UInt64(bitPattern: minV), &out)
                if width > 0 {
                    for i in range {
                        appendWidth(nulls[c][i] ? 0 : UInt64(bitPattern: ints[c][i] &- minV), width, &out)
                    }
                }
            case .fixed:
                width = layout.slotSizes[c]
                raw[c].withUnsafeBytes {
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[lo * width..<hi * width]))
                }
            case .variable:
                let startByte = lo == 0 ? 0 : varEnds[c][lo - 1]
                let total = varEnds[c][hi - 1] - startByte
                width = total <= 0xFFFF ? 2 : 4
                for i in range { appendWidth(UInt64(varEnds[c][i] - startByte), width, &out) }
                varBytes[c].withUnsafeBytes {
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[startByte..<startByte + total]))
                }
            }
            out.withUnsafeMutableBytes {
                ClusterFormat.setDescriptor($0.baseAddress!, c, offset: offset, width: width, nulls: hasNulls)
            }
        }
    }

    @inline(__always)
    private func appendLE<T: FixedWidthInteger>(_ v: T, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    @inline(__always)
    private func appendWidth(_ v: UInt64, _ width: Int, _ out: inout [UInt8]) {
        switch width {
        case 1: out.append(UInt8(truncatingIfNeeded: v))
        case 2: appendLE(UInt16(truncatingIfNeeded: v), &out)
        case 4: appendLE(UInt32(truncatingIfNeeded: v), &out)
        case 8: appendLE(v, &out)
        default: break
        }
    }
}
