import StrataCore

/// A growable byte buffer for the capture's hot path (outbox entries, clock records): each
/// append writes through a pointer. Appending a few bytes to an `[UInt8]` cost about 100
/// instructions (a uniqueness check, a capacity check, a call to copy), and the capture made
/// fifteen such appends for each new object.
///
/// ## Concurrency
/// `@unchecked Sendable` only so that a value owning one may be (`SyncArrayBind`, which copies
/// it before writing when it is shared): one thread at a time writes to it.
final class SyncByteWriter: @unchecked Sendable {
    private(set) var base: UnsafeMutableRawPointer
    /// Bytes written.
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// A writer holding a copy of these bytes.
    func copy() -> SyncByteWriter {
        let c = SyncByteWriter(capacity: capacity)
        c.raw(bytes)
        return c
    }

    /// The bytes written so far (valid until the next append).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of the bytes written so far.
    var array: [UInt8] { [UInt8](bytes) }

    /// Forgets what was written, keeping the memory.
    func removeAll() { count = 0 }

    /// Drops the bytes after the first `n`.
    func truncate(to n: Int) {
        precondition(n >= 0 && n <= count)
        count = n
    }

    @inline(__always)
    private func reserve(_ n: Int) {
        if count + n > capacity { grow(count + n) }
    }

    private func grow(_ needed: Int) {
        var c = capacity
        while c < needed { c *= 2 }
        let b = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 8)
        b.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = b
        capacity = c
    }

    /// Appends `v`'s bytes as they are in memory (the callers give the byte order).
    @inline(__always)
    private func put<T: FixedWidthInteger>(_ v: T) {
        reserve(MemoryLayout<T>.size)
        base.storeBytes(of: v, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    @inline(__always) func u8(_ v: UInt8) { put(v) }
    @inline(__always) func u16(_ v: UInt16) { put(v.littleEndian) }
    @inline(__always) func u32(_ v: UInt32) { put(v.littleEndian) }
    @inline(__always) func u32BE(_ v: UInt32) { put(v.bigEndian) }
    @inline(__always) func u64(_ v: UInt64) { put(v.littleEndian) }
    @inline(__always) func u64BE(_ v: UInt64) { put(v.bigEndian) }

    /// A tag byte then a little-endian `UInt64` (a tagged `Int` or `Double`).
    @inline(__always)
    func tagged(_ tag: UInt8, _ v: UInt64) {
        reserve(9)
        base.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        base.storeBytes(of: v.littleEndian, toByteOffset: count + 1, as: UInt64.self)
        count += 9
    }

    /// A clock: time, then node, each `UInt64` little-endian.
    @inline(__always)
    func clock(_ c: SyncClock) {
        reserve(16)
        base.storeBytes(of: c.time.littleEndian, toByteOffset: count, as: UInt64.self)
        base.storeBytes(of: c.node.littleEndian, toByteOffset: count + 8, as: UInt64.self)
        count += 16
    }

    func raw(_ b: UnsafeRawBufferPointer) {
        guard let p = b.baseAddress, b.count > 0 else { return }
        reserve(b.count)
        (base + count).copyMemory(from: p, byteCount: b.count)
        count += b.count
    }

    func raw(_ b: [UInt8]) { b.withUnsafeBytes { raw($0) } }

    /// Bytes `range` of what was written, appended again.
    func repeatBytes(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        reserve(range.count)
        (base + count).copyMemory(from: base + range.lowerBound, byteCount: range.count)
        count += range.count
    }

    /// A string as `u32` little-endian length, then its UTF-8.
    func string(_ s: String) {
        var s = s
        s.withUTF8 { u in
            u32(UInt32(u.count))
            raw(UnsafeRawBufferPointer(u))
        }
    }

    /// A string's UTF-8, without a length.
    func utf8(_ s: String) {
        var s = s
        s.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    /// `v` in decimal ASCII (what `String(v)` spells).
    func decimal(_ v: Int64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits and a sign fit
        var n = v.magnitude
        var i = 24
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                i -= 1
                d[i] = UInt8(truncatingIfNeeded: n % 10) + 48
                n /= 10
            } while n != 0
            if v < 0 {
                i -= 1
                d[i] = 45  // "-"
            }
            raw(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(d)[i...]))
        }
    }

    /// Overwrites the little-endian `UInt32` at `offset`.
    func patchU32(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count)
        base.storeBytes(of: v.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Overwrites the big-endian `UInt32` at `offset`.
    func patchU32BE(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= count)
        base.storeBytes(of: v.bigEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// `value` in the tagged encoding (FORMAT.md, "Tagged values"), the bytes
    /// `StoreValue.appendTagged` writes: the common scalars directly, the rest through it.
    func tagged(_ value: StoreValue) {
        switch value {
        case .null: u8(0)
        case .bool(let b): u16(b ? 0x0101 : 0x0001)
        case .int(let i): tagged(2, UInt64(bitPattern: i))
        case .double(let d): tagged(4, d.bitPattern)
        case .string(let s):
            u8(5)
            string(s)
        default:
            var out: [UInt8] = []
            value.appendTagged(to: &out)
            raw(out)
        }
    }
}
