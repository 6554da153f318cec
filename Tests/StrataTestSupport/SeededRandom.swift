import StrataStressWorkload

/// The tests' seeded generator: SplitMix64, the one the stress tool uses, so a randomized test
/// reproduces from its seed on every platform.
public typealias SeededRandom = StressRandom
