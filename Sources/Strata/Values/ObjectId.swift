import Foundation
internal import Synchronization

/// A 12-byte identifier, unique without coordination, in MongoDB's and RealmSwift's format:
/// a 4-byte big-endian timestamp in seconds, 5 bytes random per process, a 3-byte counter.
///
/// ```swift
/// final class Person: Object {
///     @Persisted(primaryKey: true) var _id: ObjectId   // a new ObjectId per unmanaged object
/// }
/// let id = ObjectId.generate()                  // a new id
/// let zero = ObjectId()                          // all zeros, as in RealmSwift
/// let same = try ObjectId(string: id.stringValue)
/// let fixed = ObjectId("5f3a2b1c0d0e0f1011121314")
/// ```
///
/// `ObjectId()` is the zero id, as RealmSwift defines it; `generate()` makes a new one. A
/// `@Persisted` `ObjectId` property (a primary key or not) starts as a new id on each unmanaged
/// object, as in RealmSwift. `Codable` as its 24-digit string.
///
/// Ids generated later in time compare greater (to the second); within a second, ids from one
/// process increase with the counter.
///
/// ## Concurrency
/// A value type; `Sendable`. `generate()` is safe to call from any thread.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 12 bytes, most significant first.
    public let bytes: [UInt8]

    private static let processUnique: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
    private static let counter = Atomic<UInt32>(UInt32.random(in: 0..<0xFF_FFFF))

    /// A new, unique id.
    public static func generate() -> ObjectId {
        let seconds = UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
        let count = counter.add(1, ordering: .relaxed).newValue & 0xFF_FFFF
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        bytes += [UInt8(seconds >> 24), UInt8(seconds >> 16 & 0xFF), UInt8(seconds >> 8 & 0xFF), UInt8(seconds & 0xFF)]
        bytes += processUnique
        bytes += [UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
        return ObjectId(validatedBytes: bytes)
    }

    /// The zero id (twelve zero bytes), as RealmSwift's `ObjectId()`; `generate()` makes a new one.
    public init() {
        bytes = [UInt8](repeating: 0, count: 12)
    }

    /// The id made of `timestamp` (whole seconds since 1970, as 4 bytes), `machineId` (the low
    /// 3 bytes) and `processId` (the low 2 bytes), then this process's counter, as RealmSwift's
    /// `init(timestamp:machineId:processId:)`.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int(timestamp.timeIntervalSince1970))
        let count = Self.counter.add(1, ordering: .relaxed).newValue & 0xFF_FFFF
        let machine = UInt32(truncatingIfNeeded: machineId), process = UInt16(truncatingIfNeeded: processId)
        bytes = [
            UInt8(seconds >> 24), UInt8(seconds >> 16 & 0xFF), UInt8(seconds >> 8 & 0xFF), UInt8(seconds & 0xFF),
            UInt8(machine >> 16 & 0xFF), UInt8(machine >> 8 & 0xFF), UInt8(machine & 0xFF),
            UInt8(process >> 8), UInt8(process & 0xFF),
            UInt8(count >> 16), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF),
        ]
    }

    /// The id a 24-digit hexadecimal literal names: `ObjectId("5f3a2b1c0d0e0f1011121314")`. An
    /// invalid literal is a programming error and stops the program with the literal in the
    /// message (as RealmSwift's does); use `init(string:)` for text known only at run time.
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        guard let parsed = try? ObjectId(string: text) else {
            preconditionFailure("'\(text)' is not an ObjectId literal: write 24 hexadecimal digits")
        }
        self = parsed
    }

    private init(validatedBytes: [UInt8]) {
        bytes = validatedBytes
    }

    /// The id whose 12 bytes are `bytes` (most significant first); nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 12 else { return nil }
        self.bytes = bytes
    }

    /// Parses 24 hexadecimal digits (either case).
    /// - Throws: `Realm.Error` with code `.invalidInput` naming the string when it is not 24
    ///   hexadecimal digits.
    public init(string: String) throws(Realm.Error) {
        let utf8 = Array(string.utf8)
        guard utf8.count == 24 else { throw Self.invalid(string) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        for pair in stride(from: 0, to: 24, by: 2) {
            guard let high = Self.hexValue(utf8[pair]), let low = Self.hexValue(utf8[pair + 1]) else {
                throw Self.invalid(string)
            }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    private static func invalid(_ string: String) -> Realm.Error {
        Realm.Error(
            .invalidInput,
            "Invalid ObjectId string '\(string)': expected 24 hexadecimal digits (0-9, a-f), as ObjectId.stringValue writes them."
        )
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The 24 lowercase hexadecimal digits.
    public var stringValue: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The creation time stored in the first four bytes (whole seconds).
    public var timestamp: Date {
        let seconds = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The 24 hexadecimal digits.
    public var description: String { stringValue }

    /// Byte-wise order, so ids sort by creation time first.
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

extension ObjectId: Codable {
    /// Reads the 24-digit string `encode(to:)` writes.
    /// - Throws: `DecodingError.dataCorrupted` naming the string when it is not an ObjectId.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(string: string)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Writes the id as its 24 lowercase hexadecimal digits.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

extension ObjectId: _Persistable, _PersistableInsideOptional, _PrimaryKey, _Indexable, RealmCollectionValue {
    /// A new id, so each unmanaged object gets its own primary key.
    public static func _strataDefaultValue() -> ObjectId { .generate() }
    public var _strataPropertyValue: PropertyValue { .objectId(self) }
    public static func _strataFromPropertyValue(_ value: PropertyValue) -> ObjectId? {
        if case .objectId(let v) = value { return v }
        return nil
    }
}
