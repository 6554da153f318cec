/// A run of free pages and the version whose commit freed them (0: reusable now).
struct FreeExtent: Equatable {
    var version: UInt64
    var first: UInt32
    var count: UInt32
}
