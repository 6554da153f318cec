/// A small deterministic random generator (SplitMix64), the same on every platform (unlike
/// `SystemRandomNumberGenerator`), so a stress run or a randomized test reproduces from its seed.
/// The tests use it too (`StrataTestSupport.SeededRandom`).
public struct StressRandom: RandomNumberGenerator, Sendable {
    /// The generator's state; each call to ``next()`` advances it by the golden-ratio increment.
    public var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` > 0; modulo bias is irrelevant here).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
