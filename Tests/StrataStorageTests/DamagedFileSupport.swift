import Foundation
import XCTest
@testable import StrataStorage

/// A closed data file held in memory, read and damaged page by page the way a reliability
/// campaign damages copies of a file: flipped bytes, zeroed pages, pages swapped whole (their
/// page-number fields as written), pages swapped with their page-number fields and checksums
/// fixed up (a forgery that only key-order checks catch), truncated cell counts.
///
/// It reads the format with its own code (FORMAT.md), not the engine's, so that what the tests
/// find is the file as written.
struct DamagedFile {
    var bytes: [UInt8]
    let pageSize: Int

    init(path: String) throws {
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        pageSize = Int(Self.u32(bytes, 44))
    }

    func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + ".lock")
    }

    static func u16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
        UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32
    }

    func u16(_ page: UInt32, _ offset: Int) -> Int { Self.u16(bytes, Int(page) * pageSize + offset) }
    func u32(_ page: UInt32, _ offset: Int) -> UInt32 { Self.u32(bytes, Int(page) * pageSize + offset) }
    func type(_ page: UInt32) -> UInt8 { bytes[Int(page) * pageSize + PageHeader.type] }

    mutating func setU16(_ page: UInt32, _ offset: Int, _ v: Int) {
        let at = Int(page) * pageSize + offset
        bytes[at] = UInt8(v & 0xFF)
        bytes[at + 1] = UInt8(v >> 8 & 0xFF)
    }

    mutating func setU32(_ page: UInt32, _ offset: Int, _ v: UInt32) {
        let at = Int(page) * pageSize + offset
        for k in 0..<4 { bytes[at + k] = UInt8(v >> (8 * UInt32(k)) & 0xFF) }
    }

    mutating func setU64(_ page: UInt32, _ offset: Int, _ v: UInt64) {
        setU32(page, offset, UInt32(truncatingIfNeeded: v))
        setU32(page, offset + 4, UInt32(truncatingIfNeeded: v >> 32))
    }

    /// The catalog root of the newest meta record whose magic is right.
    var catalogRoot: UInt32 {
        let a = Self.u64(bytes, MetaLayout.version), b = Self.u64(bytes, pageSize + MetaLayout.version)
        let slot: UInt32 = a >= b ? 0 : 1
        return u32(slot, MetaLayout.catalogRoot)
    }

    /// The keys of leaf `page`, in slot order.
    func leafKeys(_ page: UInt32) -> [[UInt8]] {
        (0..<u16(page, PageHeader.cellCount)).map { i in
            let off = Int(page) * pageSize + u16(page, PageHeader.size + 2 * i)
            let klen = Self.u16(bytes, off)
            return Array(bytes[(off + 6)..<(off + 6 + klen)])
        }
    }

    /// The tree at `root`, read from the bytes: its leaves in key order, its branches, and the
    /// first pages of its overflow runs with their lengths in pages.
    func walk(_ root: UInt32) -> (leaves: [UInt32], branches: [UInt32], runs: [(first: UInt32, pages: Int)]) {
        var leaves: [UInt32] = [], branches: [UInt32] = [], runs: [(UInt32, Int)] = []
        func visit(_ n: UInt32) {
            let count = u16(n, PageHeader.cellCount)
            if type(n) == PageType.branch.rawValue {
                branches.append(n)
                for i in 0..<count { visit(u32(n, u16(n, PageHeader.size + 2 * i))) }
                return
            }
            leaves.append(n)
            for i in 0..<count {
                let off = u16(n, PageHeader.size + 2 * i)
                let klen = u16(n, off)
                let word = u32(n, off + 2)
                if word & CellLayout.overflowFlag != 0 {
                    let first = u32(n, off + 6 + klen)
                    runs.append((first, Int(u32(first, PageHeader.runPages))))
                }
            }
        }
        if root != 0 { visit(root) }
        return (leaves, branches, runs)
    }

    /// The root of the tree named `name`, from the catalog.
    func treeRoot(_ name: String) -> UInt32? {
        for leaf in walk(catalogRoot).leaves {
            for i in 0..<u16(leaf, PageHeader.cellCount) {
                let off = u16(leaf, PageHeader.size + 2 * i)
                let klen = u16(leaf, off)
                let at = Int(leaf) * pageSize + off + 6
                if Array(bytes[at..<(at + klen)]) == Array(name.utf8) { return Self.u32(bytes, at + klen) }
            }
        }
        return nil
    }

    // MARK: Damage

    mutating func flip(page: UInt32, offset: Int, mask: UInt8 = 0xFF) {
        bytes[Int(page) * pageSize + offset] ^= mask
    }

    mutating func zero(page: UInt32) {
        let at = Int(page) * pageSize
        for k in at..<(at + pageSize) { bytes[k] = 0 }
    }

    /// Exchanges pages `a` and `b` whole, headers included (so each names its old place).
    mutating func swap(_ a: UInt32, _ b: UInt32) {
        let (x, y) = (Int(a) * pageSize, Int(b) * pageSize)
        for k in 0..<pageSize { bytes.swapAt(x + k, y + k) }
    }

    /// Exchanges pages `a` and `b` and makes each look written where it now is: its page-number
    /// field and checksum are fixed up. Only the keys give the forgery away.
    mutating func swapAndForge(_ a: UInt32, _ b: UInt32) {
        swap(a, b)
        for n in [a, b] {
            setU32(n, PageHeader.pageNumber, n)
            resum(n)
        }
    }

    /// Recomputes the checksum of page `n` (a single page) over its current bytes.
    mutating func resum(_ n: UInt32, pages: Int = 1) {
        let at = Int(n) * pageSize
        let sum = bytes.withUnsafeBytes { Checksum.ofPage($0.baseAddress! + at, length: pages * pageSize) }
        setU64(n, PageHeader.checksum, sum)
    }
}
