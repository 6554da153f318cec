import Foundation
import XCTest
@testable import StrataStorage
import StrataPOSIX
@_exported import StrataTestSupport

/// Gives each test its own temporary directory, removed afterwards, and disarms every injected
/// fault at the end.
class StorageTestCase: TemporaryDirectoryTestCase {
    var directory: URL { temporaryDirectory }

    override func tearDownWithError() throws {
        FaultInjector.disarmAll()
        try super.tearDownWithError()
    }

    func open(_ name: String = "test.strata", pageSize: Int = 4096, readOnly: Bool = false) throws -> Database {
        var o = Database.Options()
        o.pageSize = pageSize
        o.readOnly = readOnly
        o.mapReserve = 64 << 20
        return try Database(path: path(name), options: o)
    }
}

extension ReadTransaction {
    func allEntries(_ tree: Tree) throws -> [([UInt8], [UInt8])] {
        var out: [([UInt8], [UInt8])] = []
        try forEach(in: tree) { k, v in
            out.append((Array(k), Array(v))); return true
        }
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
