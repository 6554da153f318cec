extension PageAccess {
    /// The bytes of area `ref`, checked: the page is an area page (type 7) inside the version's
    /// pages that names itself, written by a version this access may see, and the area lies
    /// inside the page's used bytes at an aligned offset; the first time since the page was
    /// written, its checksum (recorded in `checked`, like a node's).
    @inline(__always)
    func area(_ ref: AreaReference) throws -> UnsafeRawBufferPointer {
        let p = try page(ref.page)
        let offset = Int(ref.offset)
        let end = offset + Int(ref.length)
        guard p.u8(PageHeader.type) == PageType.area.rawValue, p.u64(PageHeader.version) <= maxVersion,
            offset >= AreaLayout.first, offset % AreaLayout.alignment == 0, ref.length >= 1,
            end <= Int(p.u16(AreaLayout.used)), end <= pageSize
        else { throw badArea(ref, p) }
        let version = p.u64(PageHeader.version)
        if let checked, version != ownVersion, !checked.isCheckedInFull(ref.page, version: version) {
            try checkAreaPageInFull(ref.page, p, version: version, checked)
        }
        return UnsafeRawBufferPointer(start: p + offset, count: Int(ref.length))
    }

    /// The first check of area page `n` since it was written: its checksum and its used bytes.
    @inline(never)
    func checkAreaPageInFull(_ n: UInt32, _ p: UnsafeRawPointer, version: UInt64, _ checked: CheckedPages) throws {
        guard p.u64(PageHeader.checksum) == Checksum.ofPage(p, length: pageSize) else {
            throw corrupt(n, "checksum mismatch: the page does not hold what its commit wrote")
        }
        let used = Int(p.u16(AreaLayout.used))
        guard used >= AreaLayout.first, used <= pageSize else {
            throw corrupt(n, "an area page whose areas end at byte \(used), outside the page")
        }
        checked.insert(n, version: version, inFull: true)
    }

    /// What is wrong with a reference to an area (the rare path of `area`).
    @inline(never)
    func badArea(_ ref: AreaReference, _ p: UnsafeRawPointer) -> StorageError {
        let t = p.u8(PageHeader.type)
        let version = p.u64(PageHeader.version)
        if t != PageType.area.rawValue {
            return corrupt(ref.page, "a reference to an \(ref) names a page of type \(t), not an area page")
        }
        if version > maxVersion {
            return corrupt(
                ref.page,
                "written by version \(version), newer than this snapshot's version \(maxVersion) (a page reused while still in use, or damaged)"
            )
        }
        return corrupt(
            ref.page,
            "a reference to an \(ref) lies outside the page's areas (which end at byte \(p.u16(AreaLayout.used)))"
        )
    }
}
