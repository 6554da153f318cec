import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX

/// Gives each test its own temporary directory, removed afterwards.
class StorageTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        FaultInjector.disarmAll()
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String = "test.strata") -> String { directory.appendingPathComponent(name).path }

    func open(_ name: String = "test.strata", pageSize: Int = 4096, readOnly: Bool = false) throws -> Database {
        var o = Database.Options()
        o.pageSize = pageSize
        o.readOnly = readOnly
        o.mapReserve = 64 << 20
        return try Database(path: path(name), options: o)
    }
}

/// A small deterministic random generator (SplitMix64) so failures reproduce from the seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n`.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func key(_ i: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) } }

extension ReadTransaction {
    func allEntries(_ tree: Tree) throws -> [([UInt8], [UInt8])] {
        var out: [([UInt8], [UInt8])] = []
        try forEach(in: tree) { k, v in out.append((Array(k), Array(v))); return true }
        return out
    }
}

extension ReadTransaction {
    /// The entries of tree `name` keyed by their 8-byte big-endian keys (`key(_:)`); empty if
    /// the tree does not exist.
    func entriesByNumber(_ name: String) throws -> [UInt64: [UInt8]] {
        var out: [UInt64: [UInt8]] = [:]
        guard let t = try tree(named: name) else { return out }
        try forEach(in: t) { k, v in
            out[UInt64(bigEndian: k.loadUnaligned(as: UInt64.self))] = Array(v)
            return true
        }
        return out
    }
}
