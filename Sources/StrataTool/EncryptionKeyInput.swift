import Foundation

/// Where a command finds the 64-byte key of an encrypted file: a key file named on the command
/// line, or the `STRATA_ENCRYPTION_KEY` environment variable.
///
/// The key itself never appears in the command's arguments, which other users of the machine
/// can read (`ps`, `/proc/PID/cmdline`) and shells keep in their history; only the name of a
/// file that holds it does. A key file holds the 64 bytes themselves, or 128 hexadecimal digits
/// (whitespace around them, such as a final newline, is ignored). The environment variable
/// holds 128 hexadecimal digits; an environment is readable only by the process's own user.
enum EncryptionKeyInput {
    /// The environment variable a command reads the source file's key from when no key file is
    /// named.
    static let environmentVariable = "STRATA_ENCRYPTION_KEY"

    /// The key in the file at `path`.
    /// - Throws: `ToolError` naming the file when it cannot be read or holds neither 64 bytes
    ///   nor 128 hexadecimal digits.
    static func read(file path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError("Cannot read the key file \(path). Give a file holding the 64-byte key.")
        }
        let bytes = [UInt8](data)
        if bytes.count == 64 { return bytes }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let key = parse(hex: text) { return key }
        throw ToolError(
            "The key file \(path) holds \(bytes.count) bytes; a key file must hold the 64-byte key itself, or 128 hexadecimal digits."
        )
    }

    /// The key in `STRATA_ENCRYPTION_KEY`, or nil when it is not set (or set to nothing).
    /// - Throws: `ToolError` when it is set to anything but 128 hexadecimal digits.
    static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws
        -> [UInt8]?
    {
        guard let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines),
            !value.isEmpty
        else { return nil }
        guard let key = parse(hex: value) else {
            throw ToolError(
                "\(environmentVariable) holds \(value.count) characters; it must hold the 64-byte key as 128 hexadecimal digits."
            )
        }
        return key
    }

    /// The 64 bytes that 128 hexadecimal digits (either case) spell, or nil.
    static func parse(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 128 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var key: [UInt8] = []
        key.reserveCapacity(64)
        var i = 0
        while i < 128 {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            key.append(high << 4 | low)
            i += 2
        }
        return key
    }
}
