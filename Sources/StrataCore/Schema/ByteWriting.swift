func appendU16(_ v: UInt16, _ out: inout [UInt8]) {
    out.append(UInt8(v & 0xFF))
    out.append(UInt8(v >> 8))
}

func appendU32(_ v: UInt32, _ out: inout [UInt8]) {
    withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
}

func appendString(_ s: String, _ out: inout [UInt8]) {
    let bytes = Array(s.utf8)
    appendU32(UInt32(bytes.count), &out)
    out.append(contentsOf: bytes)
}
