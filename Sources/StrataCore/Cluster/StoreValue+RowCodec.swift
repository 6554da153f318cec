import Foundation

/// The value of a fixed-width slot of `type` (not int or link) at `s`: the same bytes in a row
/// slot and in a cluster's fixed-width column (FORMAT.md).
func fixedSlotValue(_ type: ColumnType, _ bytes: UnsafeRawBufferPointer, at s: Int) -> StoreValue {
    switch type {
    case .bool: return .bool(bytes[s] != 0)
    case .float:
        return .float(Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt32.self))))
    case .double:
        return .double(
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: UInt64.self))))
    case .timestamp:
        return .timestamp(
            seconds: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: s, as: Int64.self)),
            nanoseconds: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: s + 8, as: Int32.self)))
    case .objectId: return .objectId(Array(bytes[s..<s + 12]))
    case .uuid: return .uuid(Array(bytes[s..<s + 16]))
    case .decimal128: return .decimal128(Array(bytes[s..<s + 16]))
    case .int, .link, .string, .data, .mixed, .linkingObjects: return .null
    }
}

/// Writes the bytes of a non-null fixed-width `value` of `type` (not int or link) at `at`, as a row
/// slot and a cluster's fixed-width column hold them; false when the value is not of that type.
func storeFixedSlot(_ type: ColumnType, _ value: StoreValue, at: UnsafeMutableRawPointer) -> Bool {
    switch (type, value) {
    case (.bool, .bool(let b)): at.storeBytes(of: b ? 1 : 0, as: UInt8.self)
    case (.float, .float(let f)): at.storeBytes(of: f.bitPattern.littleEndian, as: UInt32.self)
    case (.double, .double(let d)): at.storeBytes(of: d.bitPattern.littleEndian, as: UInt64.self)
    case (.timestamp, .timestamp(let sec, let ns)):
        at.storeBytes(of: UInt64(bitPattern: sec).littleEndian, as: UInt64.self)
        at.storeBytes(of: UInt32(bitPattern: ns).littleEndian, toByteOffset: 8, as: UInt32.self)
    case (.objectId, .objectId(let b)) where b.count == 12:
        b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 12) }
    case (.uuid, .uuid(let b)) where b.count == 16:
        b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 16) }
    case (.decimal128, .decimal128(let b)) where b.count == 16:
        b.withUnsafeBytes { at.copyMemory(from: $0.baseAddress!, byteCount: 16) }
    default: return false
    }
    return true
}

extension StoreValue {
    /// The case name, for error messages.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .timestamp: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .link, .typedLink: "object"
        case .list: "list"
        case .map: "map"
        }
    }
}
