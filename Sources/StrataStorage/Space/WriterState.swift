/// What the writer remembers about the newest committed version between transactions, so a
/// commit does not re-read the free list from disk (valid while no other process commits).
struct WriterState {
    var version: UInt64
    var free: FreeSpace
    /// Pages of that version's free-list chain (freed by the next commit, which writes a new one).
    var freeListChain: [UInt32]
    /// Commit-list pages that version's commit wrote (freed by the next commit).
    var ownListPages: [UInt32]
    var meta: MetaRecord
    /// The data file's length after that version's commit (the handle grew or shortened it
    /// itself; any later change of length comes with a later version).
    var fileBytes: Int64
}
