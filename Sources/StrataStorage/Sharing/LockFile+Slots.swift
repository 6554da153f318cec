import StrataPOSIX

extension LockFile {
    /// The reader table's live slots: each with its owner's process id and the version it pins.
    /// A slot whose owner died (its byte lock vanished with it) is left out.
    func slots() -> [ReaderSlot] {
        var out: [ReaderSlot] = []
        for i in 0..<slotCount {
            let base = region.base + Offset.slots + Offset.slotSize * i
            let pid = Int32(bitPattern: base.load(fromByteOffset: 0, as: UInt32.self))
            guard pid != 0 else { continue }
            if i != mySlot, let fd {
                let alive = (try? System.isLockedByOther(fd, byte: Self.slotLockBase + Int64(i))) ?? true
                if !alive { continue }
            }
            let version = base.load(fromByteOffset: 8, as: UInt64.self)
            out.append(
                ReaderSlot(processID: pid, pinnedVersion: version == 0 ? nil : version, isThisHandle: i == mySlot))
        }
        return out
    }
}
