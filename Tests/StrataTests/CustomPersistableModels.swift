import Foundation
import Strata

/// Stored as its dotted text.
struct IPv4: CustomPersistable, Hashable {
    typealias PersistedType = String
    var octets: [UInt8]

    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { octets = [a, b, c, d] }
    init(persistedValue: String) { octets = persistedValue.split(separator: ".").compactMap { UInt8($0) } }
    var persistableValue: String { octets.map(String.init).joined(separator: ".") }
}

/// Stored as an Int; only even numbers convert back.
struct EvenNumber: Hashable {
    var value: Int
}

extension EvenNumber: FailableCustomPersistable {
    typealias PersistedType = Int
    init?(persistedValue: Int) {
        guard persistedValue % 2 == 0 else { return nil }
        value = persistedValue
    }
    var persistableValue: Int { value }
}

final class NetworkHost: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var address: IPv4
    @Persisted var backup: IPv4?
    @Persisted var aliases: List<IPv4>
    @Persisted var ports: Map<String, EvenNumber>
    @Persisted var weight = EvenNumber(value: 2)
    @Persisted var homepage: URL?
    @Persisted var docs: URL = URL(string: "https://example.com/docs")!
    @Persisted var mirrors: List<URL>
}

// The mapping RealmSwift's documentation has apps declare for `URL`; Strata stores `URL`
// itself, and the declaration still compiles.
extension URL: FailableCustomPersistable {
    public typealias PersistedType = String
    public init?(persistedValue: String) { self.init(string: persistedValue) }
    public var persistableValue: String { absoluteString }
}
