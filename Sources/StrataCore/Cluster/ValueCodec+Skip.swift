extension ValueCodec {
    /// Moves `r` past one tagged value without decoding it; false when the bytes do not hold
    /// one (an unknown tag, or a value running past the end).
    static func skip(_ r: inout ByteReader) -> Bool {
        guard let tag = r.u8() else { return false }
        let fixed: Int
        switch tag {
        case 0: fixed = 0
        case 1: fixed = 1
        case 2, 4, 11: fixed = 8
        case 3: fixed = 4
        case 7, 8: fixed = 12
        case 9, 10: fixed = 16
        case 5, 6:
            guard let n = r.u32() else { return false }
            fixed = Int(n)
        case 12:
            guard let n = r.u32() else { return false }
            fixed = Int(n) + 8
        case 13:
            guard let n = r.u32() else { return false }
            for _ in 0..<n where !skip(&r) { return false }
            return true
        case 14:
            guard let n = r.u32() else { return false }
            for _ in 0..<n {
                guard let length = r.u32(), r.raw(Int(length)) != nil, skip(&r) else { return false }
            }
            return true
        default: return false
        }
        return r.raw(fixed) != nil
    }
}
