public enum StressWorkload {
    /// The tree every crash-mode commit writes.
    public static let treeName = "data"
    /// Keys of commit `i - window` are deleted by commit `i`, which bounds the live data.
    public static let window = 40
    /// Commit `i` puts keys `c<i>-<j>` for `j` below this bound.
    public static let maxKeysPerCommit = 8

    public static func key(_ commit: Int, _ j: Int) -> [UInt8] { Array("c\(commit)-\(j)".utf8) }
    public static let lastKey: [UInt8] = Array("last".utf8)

    /// A value of mixed size: mostly small, some too big to stay inline in a 4 KiB leaf, a few
    /// spanning several pages (overflow runs that get freed and reused).
    public static func value(_ commit: Int, _ j: Int, _ rng: inout StressRandom) -> [UInt8] {
        let roll = rng.below(100)
        let size: Int
        switch roll {
        case ..<70: size = 8 + rng.below(200)
        case ..<90: size = 200 + rng.below(1300)
        case ..<97: size = 1500 + rng.below(1500)
        default: size = 4096 + rng.below(16_000)
        }
        let fill = UInt8(truncatingIfNeeded: rng.next())
        var v = Array("v\(commit)-\(j):".utf8)
        v.reserveCapacity(max(size, v.count))
        var b = fill
        while v.count < size {
            v.append(b)
            b &+= 7
        }
        return v
    }

    /// The changes commit `i` (1-based) makes, in order.
    public static func ops(seed: UInt64, commit i: Int) -> [StressOp] {
        var rng = StressRandom(seed: seed ^ (UInt64(i) &* 0xD6E8_FEB8_6659_FD93))
        var ops: [StressOp] = []
        let count = 1 + rng.below(maxKeysPerCommit)
        for j in 0..<count { ops.append(.put(key: key(i, j), value: value(i, j, &rng))) }
        // Updates of recent commits' keys (some recreate keys that were never written or deleted).
        if i > 1 {
            for _ in 0..<rng.below(4) {
                let m = max(1, i - 1 - rng.below(min(i - 1, window - 1)))
                let j = rng.below(maxKeysPerCommit)
                ops.append(.put(key: key(m, j), value: value(i, 100 + j, &rng)))
            }
        }
        // An early delete now and then.
        if i > 2, rng.below(4) == 0 {
            let m = max(1, i - 1 - rng.below(min(i - 1, window - 1)))
            ops.append(.delete(key: key(m, rng.below(maxKeysPerCommit))))
        }
        // The window: everything commit i - window could have left behind.
        if i > window {
            for j in 0..<maxKeysPerCommit { ops.append(.delete(key: key(i - window, j))) }
        }
        ops.append(.put(key: lastKey, value: Array(String(i).utf8)))
        return ops
    }

    /// FNV-1a over every key and value of commits 1...n: what `--mode digest` prints.
    public static func digest(seed: UInt64, commits n: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ bytes: [UInt8]) {
            for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
            h = (h ^ 0xFF) &* 0x100_0000_01B3
        }
        if n >= 1 {
            for i in 1...n {
                for op in ops(seed: seed, commit: i) {
                    switch op {
                    case .put(let k, let v): mix([1]); mix(k); mix(v)
                    case .delete(let k): mix([2]); mix(k)
                    }
                }
            }
        }
        return h
    }
}
