import StrataStorage

/// A fuzz input, read as a script that turns one of the base files (`BaseFiles`) into the file
/// the harness opens. A raw file rarely gets past the magic number and the per-page checksums,
/// so the script starts from a valid file, edits it, and can reseal the pages it touched (their
/// checksums recomputed) so decoding reaches the pages' structure.
///
/// Layout: one header byte, then edits until the input ends.
///
/// | header bit | meaning |
/// |---|---|
/// | 0-1 | the base file (0...3; see `BaseFiles`) |
/// | 2 | reseal every page an edit touched |
/// | 3 | clear the clean-close flag of both meta records (and reseal them): open verifies the newest commit |
/// | 4 | raw: the rest of the input is the file itself (edits none); bit 2 reseals all its pages |
/// | 5 | after reading, run a write transaction (puts, deletes, a tree created and one dropped) |
/// | 6 | open with `verifyAllOnOpen` |
///
/// Each edit is an op byte (kind in bits 5-7, argument in bits 0-4), a 3-byte little-endian
/// offset (modulo the file's length), and the operand bytes of its kind:
///
/// | kind | edit |
/// |---|---|
/// | 0 | overwrite argument+1 bytes at the offset with the next input bytes |
/// | 1 | xor the byte at the offset with the next input byte (0: flip bit `argument % 8`) |
/// | 2 | set field `argument` of `_PageChecksum.interestingOffsets` in the offset's page to an interesting value chosen by the next byte |
/// | 3 | set the u16 at the offset (rounded down to even) to the next two bytes |
/// | 4 | set the u32 at the offset (rounded down to a multiple of 4) to a small page number (next byte) |
/// | 5 | copy page `argument` over the offset's page |
/// | 6 | cut the file at the offset (when that shortens it) |
/// | 7 | zero argument*8+1 bytes at the offset |
public struct FuzzInput: Sendable {
    public var base: Int
    public var reseal: Bool
    public var unclean: Bool
    public var raw: Bool
    public var write: Bool
    public var verifyAll: Bool

    init(header: UInt8) {
        base = Int(header & 3)
        reseal = header & 4 != 0
        unclean = header & 8 != 0
        raw = header & 16 != 0
        write = header & 32 != 0
        verifyAll = header & 64 != 0
    }

    /// Values that sit on the edges of what a field may hold.
    static func interesting(_ selector: UInt8, pageCount: Int) -> UInt64 {
        let table: [UInt64] = [0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0xFFF, 0x1000, 0x1001, 0x2000, 0x7FFF, 0x8000, 0xFFFF,
                               0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000, UInt64.max, UInt64.max - 1, UInt64(Int64.max)]
        let p = UInt64(max(pageCount, 1))
        let relative: [UInt64] = [p - 1, p, p + 1, p * 2, p &- 2]
        let i = Int(selector) % (table.count + relative.count)
        return i < table.count ? table[i] : relative[i - table.count]
    }

    /// The file this input describes.
    static func materialize(_ input: [UInt8], bases: [[UInt8]], pageSizes: [Int]) -> (file: [UInt8], options: FuzzInput) {
        let options = FuzzInput(header: input.first ?? 0)
        var file: [UInt8]
        var pageSize: Int
        if options.raw {
            file = Array(input.dropFirst())
            pageSize = 4096
            if file.count >= 48 {
                let ps = Int(file[44]) | Int(file[45]) << 8 | Int(file[46]) << 16 | Int(file[47]) << 24
                if ps >= 4096, ps <= 32768, ps & (ps - 1) == 0 { pageSize = ps }
            }
        } else {
            file = bases[options.base]
            pageSize = pageSizes[options.base]
        }
        var touched = Set<Int>()
        if options.raw && options.reseal { touched.formUnion(0..<((file.count + pageSize - 1) / pageSize)) }
        var i = 1
        func next() -> UInt8? {
            guard i < input.count else { return nil }
            defer { i += 1 }
            return input[i]
        }
        while !options.raw, let op = next() {
            guard let o0 = next(), let o1 = next(), let o2 = next() else { break }
            guard !file.isEmpty else { break }
            let kind = op >> 5
            let arg = Int(op & 31)
            let offset = (Int(o0) | Int(o1) << 8 | Int(o2) << 16) % file.count
            let pages = (file.count + pageSize - 1) / pageSize
            let page = offset / pageSize
            touched.insert(page)
            switch kind {
            case 0:
                for k in 0...arg {
                    guard let b = next() else { break }
                    if offset + k < file.count { file[offset + k] = b; touched.insert((offset + k) / pageSize) }
                }
            case 1:
                let b = next() ?? 0
                file[offset] ^= b == 0 ? UInt8(1 << (arg % 8)) : b
            case 2:
                let fields = _PageChecksum.interestingOffsets
                let field = fields[arg % fields.count]
                let value = interesting(next() ?? 0, pageCount: pages)
                let at = page * pageSize + field.offset
                for k in 0..<field.size where at + k < file.count { file[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
            case 3:
                let at = offset & ~1
                let lo = next() ?? 0, hi = next() ?? 0
                if at + 1 < file.count { file[at] = lo; file[at + 1] = hi }
            case 4:
                let at = offset & ~3
                let v = UInt32(next() ?? 0) % UInt32(max(pages + 2, 1))
                for k in 0..<4 where at + k < file.count { file[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
            case 5:
                let from = (arg % pages) * pageSize
                let to = page * pageSize
                let n = min(pageSize, file.count - from, file.count - to)
                if n > 0 && from != to { file.replaceSubrange(to..<(to + n), with: file[from..<(from + n)]) }
            case 6:
                if offset < file.count { file.removeSubrange(offset...) }
                touched.insert(max(0, (file.count - 1) / pageSize))
            default:
                let n = min(arg * 8 + 1, file.count - offset)
                for k in 0..<n { file[offset + k] = 0 }
                touched.insert((offset + n - 1) / pageSize)
            }
        }
        if options.unclean {
            for slot in 0..<2 where (slot + 1) * pageSize <= file.count {
                file.withUnsafeMutableBytes { _PageChecksum.clearCleanFlag($0.baseAddress! + slot * pageSize) }
                touched.insert(slot)
            }
        }
        if options.reseal || options.unclean {
            reseal(&file, pageSize: pageSize, pages: touched, everything: options.reseal)
        }
        return (file, options)
    }

    /// Recomputes the checksum of each touched page, and of each overflow run that covers a
    /// touched page (only the meta pages when `everything` is false).
    static func reseal(_ file: inout [UInt8], pageSize: Int, pages touched: Set<Int>, everything: Bool) {
        let pages = file.count / pageSize
        // An 8-aligned copy: the checksum reads whole words.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(file.count, 8), alignment: 16)
        defer { buffer.deallocate() }
        file.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        var n = 0
        while n < pages {
            let p = buffer + n * pageSize
            let run = min(_PageChecksum.pagesClaimed(by: p), pages - n)
            let hit = everything ? (n..<(n + run)).contains(where: touched.contains) : (n < 2 && touched.contains(n))
            if hit { _PageChecksum.seal(p, pageSize: pageSize, available: file.count - n * pageSize) }
            n += n < 2 ? 1 : run
        }
        file.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: buffer, byteCount: $0.count) }
    }
}
