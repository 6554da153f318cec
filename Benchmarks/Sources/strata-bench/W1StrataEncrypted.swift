import Foundation
import Strata

/// W1 on Strata's object layer with an encrypted file: the `strata` engine's code, with
/// `Realm.Configuration.encryptionKey` set (a fixed 64-byte key; every page sealed with
/// AES-256-GCM, FORMAT.md "Encrypted files"). Run beside `strata` to see what encryption costs.
final class StrataEncryptedEngine: W1Engine {
    static let name = "strata-encrypted"
    static let durability = StrataEngine.durability + "; every page sealed with AES-256-GCM at commit"
    static let fileExtension = "realm"
    static func files(at path: String) -> [String] { StrataEngine.files(at: path) }

    /// A fixed key: the benchmark measures the cipher's cost, not key handling.
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) })

    let engine: StrataEngine

    init(path: String) throws {
        engine = try StrataEngine(path: path, encryptionKey: Self.key)
    }

    func bulkInsert(_ people: [Person]) throws { try engine.bulkInsert(people) }
    func insertOne(_ person: Person) throws { try engine.insertOne(person) }
    func pointGets(_ ids: [Int64], into checksum: inout W1Checksum) throws {
        try engine.pointGets(ids, into: &checksum)
    }
    func scanFilter() throws -> (count: Int, scoreSum: Double) { try engine.scanFilter() }
    func updateAges(_ ids: [Int64]) throws { try engine.updateAges(ids) }
    func readOne(_ id: Int64, into checksum: inout W1Checksum) throws -> Bool {
        try engine.readOne(id, into: &checksum)
    }
    func notes(for step: W1Step) -> [String: Any] {
        var n = engine.notes(for: step)
        n["encryption"] = "Realm.Configuration(encryptionKey: <64 bytes>)"
        return n
    }
    func afterStep() throws -> [String: Any] { try engine.afterStep() }
    func fileBytes() -> (bytes: Int64, what: String) { engine.fileBytes() }
    func close() throws { try engine.close() }
}
