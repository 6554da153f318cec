import StrataPOSIX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// The cipher of the file `fd` (whose meta page 0 or 1 was found to be Strata's), or nil for
    /// a plain file, checked against the key the caller gives.
    /// - Throws: ``StorageError/encryptionKeyRequired(path:)`` for an encrypted file opened
    ///   without a key, ``StorageError/fileNotEncrypted(path:)`` for a plain file opened with
    ///   one, ``StorageError/wrongEncryptionKey(path:)`` when the key fails the key check.
    static func openCipher(
        fd: FileDescriptor, path: String, fileSize: Int64, pageSize: Int, key: [UInt8]?
    ) throws -> PageCipher? {
        let buf = UnsafeMutableRawPointer.allocate(byteCount: 3 * pageSize, alignment: 4096)
        defer { buf.deallocate() }
        let read = try StorageError.wrap { try System.pread(fd, into: buf, count: 3 * pageSize, offset: 0) }
        // Either meta slot tells (one may be torn or erased).
        var encrypted = false
        for slot in 0..<2 where read >= slot * pageSize + MetaLayout.magic + 8 {
            if (buf + slot * pageSize).u64(MetaLayout.magic) == encryptedFileMagic { encrypted = true }
        }
        guard encrypted else {
            if key != nil { throw StorageError.fileNotEncrypted(path: path) }
            return nil
        }
        guard let key else { throw StorageError.encryptionKeyRequired(path: path) }
        guard read == 3 * pageSize else {
            throw StorageError.truncated(path: path, expectedBytes: Int64(3 * pageSize), actualBytes: fileSize)
        }
        return try PageCipher.open(keyPage: buf + 2 * pageSize, key: key, pageSize: pageSize, path: path)
    }

    /// A mapping of `length` bytes of pages: the file itself for a plain file; for an encrypted
    /// one, the plaintext mirror with the meta pages mapped from the file over its start, and the
    /// file mapped read-only beside it (`SealedFile`).
    static func makeMapping(
        fd: FileDescriptor, length: Int, writable: Bool, cipher: PageCipher?, pathName: PathName
    ) throws -> Mapping {
        guard let cipher else {
            return Mapping(region: try StorageError.wrap { try System.mmap(fd, length: length, writable: writable) })
        }
        let pageSize = cipher.pageSize
        let mirror = try StorageError.wrap { try System.mapAnonymous(length: length) }
        do {
            try StorageError.wrap { try System.mapFile(fd, over: mirror, length: 2 * pageSize, writable: writable) }
            let unit = 1 << 20
            let fileLength =
                (CipherLayout.fileBytes(forPages: length / pageSize, pageSize: pageSize) + unit - 1) / unit * unit
            let file = try StorageError.wrap { try System.mmap(fd, length: fileLength, writable: false) }
            return Mapping(
                region: mirror, sealed: SealedFile(cipher: cipher, file: file, pages: length / pageSize, path: pathName)
            )
        } catch {
            System.munmap(mirror)
            throw error
        }
    }

    /// The bytes the file needs to hold `pages` pages.
    func fileBytes(forPages pages: UInt32) -> Int64 {
        guard cipher != nil else { return Int64(pages) * Int64(pageSize) }
        return Int64(CipherLayout.fileBytes(forPages: Int(pages), pageSize: pageSize))
    }
}
