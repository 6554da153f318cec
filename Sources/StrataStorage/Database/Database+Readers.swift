import StrataPOSIX

extension Database {
    /// The handles (in any process) that have the database open, with the versions their
    /// snapshots pin: pages those versions use are not reused until they end.
    public func readers() -> [ReaderSlot] {
        lockFile.slots()
    }
}
