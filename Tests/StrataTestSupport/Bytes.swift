/// The UTF-8 bytes of `s`.
public func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// `i` as an 8-byte big-endian key, so keys sort as their numbers do.
public func key(_ i: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) } }
