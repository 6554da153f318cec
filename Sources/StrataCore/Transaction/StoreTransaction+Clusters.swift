import StrataStorage

// Objects live in clusters (Cluster/): the entry of `c:<T>` with the greatest key <= an
// object's key holds it. These are the cluster-level reads and writes behind `row`, `insert`,
// `set` and `delete`.

extension StoreTransaction {
    /// The entry of tree `name` with the greatest key <= `key`.
    func floorEntry(
        _ key: UnsafeRawBufferPointer, tree name: String
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        if let w = write {
            guard let h = try writeTree(name, create: false) else { return nil }
            return try w.floor(key, in: h)
        }
        guard let t = try readTree(name) else { return nil }
        return try read!.floor(key, in: t)
    }

    /// `floorEntry` in a read transaction, with the key of the entry after the floor when it is in
    /// the same leaf (`ReadTransaction.floorAndNextKey`).
    @inline(__always)
    func readFloorAndNextKey(
        _ key: UnsafeRawBufferPointer, tree name: String
    ) throws -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, next: UnsafeRawBufferPointer?)? {
        guard let t = try readTree(name) else { return nil }
        return try read!.floorAndNextKey(key, in: t)
    }

    /// `bytes` as a validated cluster of `table`.
    /// - Throws: `StoreError.corrupt` when they are not one.
    @inline(__always)
    func clusterView(_ bytes: UnsafeRawBufferPointer, _ table: StoreTable) throws -> ClusterView {
        guard let view = ClusterView(bytes, table: table) else {
            throw StoreError.corrupt(
                "a cluster of '\(table.name)' is corrupt; run Database.verify(), or restore the file from a backup")
        }
        return view
    }

    /// The transaction's cluster editor, emptied for `table`.
    func editor(_ table: StoreTable) -> ClusterEditor {
        if let e = clusterEditor {
            e.reset(table)
            return e
        }
        let e = ClusterEditor(table: table)
        clusterEditor = e
        return e
    }

    /// Puts object `key` with `values` into the cluster that should hold it.
    /// - Throws: `StoreError.duplicatePrimaryKey` when the key is taken; type errors naming the column.
    func insertObject(_ table: StoreTable, key: Int64, values: [StoreValue]) throws {
        let w = requireWrite()
        let h = try writeTree(table.objectTree, create: true)!
        var kb = objectKeyBytes(key)
        // Most inserts splice the object into the encoded cluster in one descent. One that
        // overfills it splices into scratch and splits there: the first part stays under the
        // cluster's key, the second is a new entry.
        if overfullScratch == nil {
            let capacity = w.inlineValueCapacity(keyLength: 8)
            overfullScratch = .allocate(byteCount: 2 * capacity + 4096, alignment: 8)
            splitScratch = .allocate(byteCount: capacity, alignment: 8)
            inPlaceScratch = .allocate(byteCount: capacity, alignment: 8)
        }
        spliceDuplicate = false
        spliceSecond = 0
        var spliced = try withUnsafeBytes(of: &kb) { k in
            try w.modifyFloor(k, in: h) { _, old, inPlace, buffer in
                self.splice(table, key, values, old, inPlace, buffer)
            }
        }
        if !spliced.found, !spliceDuplicate {
            // The floor is the last cluster of the leaf to the left (the key sorts between a
            // separator and the first key of the leaf it routes to, rare since separators are
            // first keys): find it, then modify it.
            if let floor = try withUnsafeBytes(of: &kb, { try w.floor($0, in: h) }) {
                var ck = floor.key.loadUnaligned(as: UInt64.self)
                let length = try withUnsafeBytes(of: &ck) { k in
                    try w.modify(k, in: h) { old, buffer in
                        guard let old, case .replaced(let length) = self.splice(table, key, values, old, nil, buffer)
                        else { return nil }
                        return length
                    }
                }
                spliced = (true, length)
            }
        }
        if spliceDuplicate { throw duplicateKey(table, key) }
        if spliced.length != nil {
            if spliceSecond > 0 {
                var sk = objectKeyBytes(spliceSecondKey)
                let second = UnsafeRawBufferPointer(rebasing: splitScratch![0..<spliceSecond])
                try withUnsafeBytes(of: &sk) { k in _ = try w.put(k, second, in: h) }
            }
            return
        }
        let e = editor(table)
        var oldKey: Int64?
        var atEnd = false
        let floor = try withUnsafeBytes(of: &kb) { try w.floor($0, in: h) }
        if let floor {
            let view = try clusterView(floor.value, table)
            let (p, found) = view.position(of: key)
            if found { throw duplicateKey(table, key) }
            e.load(view, table: table)
            oldKey = view.firstKey
            atEnd = p == view.count
            try e.insert(key: key, values: values, at: p)
        } else {
            // Below every cluster's first key: the first cluster takes it (and a new tree key).
            var loaded = false
            try w.forEach(in: h) { _, v in
                let view = try clusterView(v, table)
                e.load(view, table: table)
                oldKey = view.firstKey
                loaded = true
                return false
            }
            if !loaded { e.reset(table) }
            try e.insert(key: key, values: values, at: 0)
        }
        try storeClusters(e, replacing: oldKey, appended: atEnd, w, h)
    }

    /// The splice of `insertObject` on cluster `old`: in place in the cluster's reserve when
    /// `inPlace` (the same bytes, writable) is given and the insert fits there, else into
    /// `buffer` with a new reserve. Sets `spliceDuplicate` when the key is taken, and
    /// `spliceSecond`/`spliceSecondKey` when the cluster split (the second part is in
    /// `splitScratch`). `.unchanged` when the editor must do it.
    private func splice(
        _ table: StoreTable, _ key: Int64, _ values: [StoreValue], _ old: UnsafeRawBufferPointer,
        _ inPlace: UnsafeMutableRawBufferPointer?, _ buffer: UnsafeMutableRawBufferPointer
    ) -> FloorEdit {
        // Load one byte of each cache line of the cluster first: the loads are independent, so
        // their misses overlap, where the splice's own reads (a descriptor, then the area it
        // points to, then the offset there) would take them one after another. In the `strata-bench w1` random
        // inserts the cluster is rarely in cache; this took bulk_insert from 0.65-0.66M to
        // 0.74-0.78M inserts/s (Docs/Performance.md).
        touchedLines &+= Self.touchLines(old)
        // Only the extents are checked (not that offsets rise): the splice copies byte ranges it
        // checks itself, and a reader validates fully before it reads the result.
        guard let view = ClusterView(old, table: table, rising: false) else { return .unchanged }
        let (p, found) = view.position(of: key)
        if found { spliceDuplicate = true; return .unchanged }
        if let inPlace,
            ClusterSplice.insertInPlace(
                inPlace, view, at: p, key: key, values: values, table: table,
                maxObjects: Self.maxObjectsPerCluster, scratch: inPlaceScratch!, pieces: &splicePieces)
        {
            insertsInPlace += 1
            return .editedInPlace
        }
        insertsRewritten += 1
        let limit = buffer
        if view.count < Self.maxObjectsPerCluster,
            let length = ClusterSplice.insert(view, at: p, key: key, values: values, table: table, into: limit)
        {
            return .replaced(Self.reserve(limit, length, objects: view.count + 1))
        }
        let overfull = overfullScratch!
        guard let all = ClusterSplice.insert(view, at: p, key: key, values: values, table: table, into: overfull),
            let whole = ClusterView(
                UnsafeRawBufferPointer(rebasing: overfull[0..<all]), table: table, checkColumns: false)
        else { return .unchanged }
        // Appending: the full cluster stays as it was and the new object starts the next.
        let appending = p == view.count
        let cut = appending ? view.count : whole.count / 2
        guard let left = ClusterSplice.slice(whole, 0..<cut, table: table, into: limit),
            let right = ClusterSplice.slice(whole, cut..<whole.count, table: table, into: splitScratch!)
        else { return .unchanged }
        spliceSecond = Self.reserve(splitScratch!, right, objects: whole.count - cut)
        spliceSecondKey = whole.key(at: cut)
        return .replaced(appending ? left : Self.reserve(limit, left, objects: cut))
    }

    /// The sum of one byte per 64 of `bytes` (a read of each cache line).
    @inline(__always)
    static func touchLines(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        guard let base = bytes.baseAddress else { return 0 }
        var sum: UInt8 = 0
        var i = 0
        while i < bytes.count {
            sum &+= base.load(fromByteOffset: i, as: UInt8.self)
            i += 64
        }
        return sum
    }

    /// Zeroes a reserve after the cluster of `length` bytes and `objects` objects in `buffer`
    /// and returns the length with it: room for two more objects of the cluster's average
    /// size, and at least a sixteenth of the cluster and 32 bytes, within the buffer (the
    /// cluster limit). Later inserts into the cluster take it in place
    /// (`ClusterSplice.insertInPlace`) instead of rewriting the cluster and moving the leaf's
    /// other cells. Measured on `strata-bench w1` bulk_insert (Docs/Performance.md), where the sixteenth
    /// decides: no reserve 0.60M inserts/s and 27.9 MB in use; a sixteenth 0.64-0.71M/s and
    /// 29.9 MB; an eighth 0.64-0.70M/s and 30.9 MB; a quarter 0.58-0.67M/s and 32.5 MB.
    static func reserve(_ buffer: UnsafeMutableRawBufferPointer, _ length: Int, objects: Int) -> Int {
        let extra = min(buffer.count - length, max(32, length / 16, 2 * length / max(objects, 1)))
        guard extra > 0 else { return length }
        (buffer.baseAddress! + length).initializeMemory(as: UInt8.self, repeating: 0, count: extra)
        return length + extra
    }

    /// The largest cluster of several objects, in bytes: what fits inline in a leaf (1,000 bytes
    /// at 4 KiB pages, 2,016 at 8 KiB).
    func clusterLimit(_ w: WriteTransaction) -> Int {
        w.inlineValueCapacity(keyLength: 8)
    }

    /// A cluster never holds more objects than this, however small they are (objects of an `Int`
    /// primary key and constant columns take no bytes at all); it bounds the work of decoding one.
    static let maxObjectsPerCluster = 1024

    private func duplicateKey(_ table: StoreTable, _ key: Int64) -> StoreError {
        // Only possible for a primary key that is the object key (new keys are unused ones).
        let pk = table.primaryKeyColumn ?? 0
        return StoreError.duplicatePrimaryKey(
            table: table.name, column: table.columns[pk].name, value: key == table.layout.nullKey ? "null" : String(key)
        )
    }

    /// Loads the cluster holding object `key`, lets `edit` change the object at its position,
    /// and writes the cluster back.
    /// - Throws: `StoreError.objectMissing` when there is no such object; what `edit` throws.
    func rewriteObject(_ table: StoreTable, key: Int64, _ edit: (ClusterEditor, Int) throws(StoreError) -> Void) throws
    {
        let w = requireWrite()
        let h = try writeTree(table.objectTree, create: true)!
        var kb = objectKeyBytes(key)
        guard let floor = try withUnsafeBytes(of: &kb, { try w.floor($0, in: h) }) else {
            throw StoreError.objectMissing(table: table.name, key: key)
        }
        let view = try clusterView(floor.value, table)
        let (p, found) = view.position(of: key)
        guard found else { throw StoreError.objectMissing(table: table.name, key: key) }
        let e = editor(table)
        e.load(view, table: table)
        try edit(e, p)
        try storeClusters(e, replacing: view.firstKey, appended: false, w, h)
    }

    /// Removes object `key` from its cluster (and the cluster, when it was the last object).
    func removeObject(_ table: StoreTable, key: Int64) throws {
        let w = requireWrite()
        let h = try writeTree(table.objectTree, create: true)!
        var kb = objectKeyBytes(key)
        guard let floor = try withUnsafeBytes(of: &kb, { try w.floor($0, in: h) }) else { return }
        let view = try clusterView(floor.value, table)
        let (p, found) = view.position(of: key)
        guard found else { return }
        if view.count == 1 {
            var ck = objectKeyBytes(view.firstKey)
            _ = try withUnsafeBytes(of: &ck) { try w.delete($0, in: h) }
            return
        }
        let e = editor(table)
        e.load(view, table: table)
        e.remove(at: p)
        try storeClusters(e, replacing: view.firstKey, appended: false, w, h)
    }

    /// Writes the editor's objects back as one cluster, or as several when one would not fit
    /// inline in a leaf. A cluster of one object may be any size (it goes to an overflow run).
    /// - Parameters:
    ///   - oldKey: the tree key of the cluster the editor was loaded from, if any.
    ///   - appended: the change added an object after the cluster's last: a split then leaves the
    ///     full cluster as it was and starts a new one, so that appends fill clusters.
    func storeClusters(
        _ e: ClusterEditor, replacing oldKey: Int64?, appended: Bool, _ w: WriteTransaction, _ h: TreeHandle
    ) throws {
        if let oldKey, e.count == 0 || e.keys[0] != oldKey {
            var ck = objectKeyBytes(oldKey)
            _ = try withUnsafeBytes(of: &ck) { try w.delete($0, in: h) }
        }
        guard e.count > 0 else { return }
        let capacity = clusterLimit(w)
        func emit(_ range: Range<Int>) throws {
            if range.count <= Self.maxObjectsPerCluster {
                e.encode(range, into: &rowBuffer)
            }
            if range.count <= Self.maxObjectsPerCluster && (rowBuffer.count <= capacity || range.count == 1) {
                var ck = objectKeyBytes(e.keys[range.lowerBound])
                try withUnsafeBytes(of: &ck) { k in try rowBuffer.withUnsafeBytes { _ = try w.put(k, $0, in: h) } }
                return
            }
            let cut =
                appended && range.upperBound == e.count ? range.upperBound - 1 : range.lowerBound + range.count / 2
            try emit(range.lowerBound..<cut)
            try emit(cut..<range.upperBound)
        }
        try emit(0..<e.count)
    }

    /// Writes fixed-width `value` into column `column` of object `key` in place when the
    /// cluster's encoding of the column holds it (an integer inside the column's range, a null
    /// where the column has a null bitmap).
    func patchObject(
        _ table: StoreTable, key: Int64, column c: Int, _ value: StoreValue, keepSignOfZero: Bool
    ) throws -> PatchResult {
        let w = requireWrite()
        let h = try writeTree(table.objectTree, create: true)!
        var kb = objectKeyBytes(key)
        // One descent when the cluster is in the leaf the key routes to (nearly always), none
        // right after the object was read in a leaf this transaction already wrote. The closures
        // capture nothing mutable: a captured `var` was boxed on the heap, twice per update.
        var outcome = try withUnsafeBytes(of: &kb) { k in
            try w.mutateFloorInPlace(k, in: h) {
                Self.patchCluster($0, table, key: key, column: c, value, keepSignOfZero: keepSignOfZero)
            }
        }
        if outcome == nil {
            guard let floor = try withUnsafeBytes(of: &kb, { try w.floor($0, in: h) }) else { return .missing }
            var ck = floor.key.loadUnaligned(as: UInt64.self)
            outcome = try withUnsafeBytes(of: &ck) { k in
                try w.mutateInPlace(k, in: h, checkPresence: false) {
                    Self.patchCluster($0, table, key: key, column: c, value, keepSignOfZero: keepSignOfZero)
                }
            }
        }
        guard let outcome else { return .missing }
        guard let result = outcome else {
            throw StoreError.corrupt(
                "a cluster of '\(table.name)' is corrupt; run Database.verify(), or restore the file from a backup")
        }
        return result
    }

    /// `patchObject`'s edit of the cluster `bytes`: nil when they are not a cluster of `table`.
    @inline(__always)
    private static func patchCluster(
        _ bytes: UnsafeMutableRawBufferPointer, _ table: StoreTable, key: Int64, column c: Int,
        _ value: StoreValue, keepSignOfZero: Bool
    ) -> PatchResult? {
        guard let view = ClusterView(UnsafeRawBufferPointer(bytes), table: table, checkColumns: false),
            view.fits(column: c, table: table)
        else { return nil }
        let (p, found) = view.position(of: key)
        guard found else { return .missing }
        let reader = RowReader(cluster: view, position: p, table: table)
        let previous = reader.value(c)
        if previous == value, !keepSignOfZero { return .unchanged(previous) }
        return Self.patch(bytes, reader, column: c, value) ? .patched(previous) : .needsRewrite
    }

    /// Stores `value` over column `c` of `reader`'s object in the cluster `bytes`; false when the
    /// encoding cannot hold it there.
    private static func patch(
        _ bytes: UnsafeMutableRawBufferPointer, _ reader: RowReader, column c: Int, _ value: StoreValue
    ) -> Bool {
        let table = reader.table
        guard c < reader.n else { return false }
        let d = reader.descriptor(c)
        let i = reader.position
        let bit = UInt8(1) << UInt8(i & 7)
        let valuesStart = d.offset + (d.nulls ? (reader.m + 7) >> 3 : 0)
        switch table.layout.clusterKinds[c] {
        case .int:
            if value.isNull {
                guard d.nulls else { return false }
                bytes[d.offset + i >> 3] |= bit
                return true
            }
            guard case .int(let v) = value, table.layout.types[c] == .int else { return false }
            let base = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: valuesStart, as: Int64.self))
            let delta = UInt64(bitPattern: v &- base)
            guard clusterWidth(delta) <= d.width, v >= base else { return false }
            let at = valuesStart + 8 + i * d.width
            switch d.width {
            case 1: bytes[at] = UInt8(delta)
            case 2: bytes.storeBytes(of: UInt16(delta).littleEndian, toByteOffset: at, as: UInt16.self)
            case 4: bytes.storeBytes(of: UInt32(delta).littleEndian, toByteOffset: at, as: UInt32.self)
            case 8: bytes.storeBytes(of: delta.littleEndian, toByteOffset: at, as: UInt64.self)
            default: break
            }
        case .fixed:
            let at = valuesStart + i * d.width
            if value.isNull {
                guard d.nulls else { return false }
                bytes[d.offset + i >> 3] |= bit
                // A null value's bytes are zero, as encoding writes them.
                for j in at..<at + d.width { bytes[j] = 0 }
                return true
            }
            guard storeFixedSlot(table.layout.types[c], value, at: bytes.baseAddress! + at) else { return false }
        case .none, .variable:
            return false
        }
        if d.nulls { bytes[d.offset + i >> 3] &= ~bit }
        return true
    }
}
