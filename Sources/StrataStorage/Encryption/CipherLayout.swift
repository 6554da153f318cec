/// Where an encrypted file keeps what (FORMAT.md, "Encrypted files").
///
/// An encrypted file keeps the two meta pages in clear at their usual places (with
/// ``encryptedFileMagic``), then one key page in clear, then one sealed slot per page from page 2
/// on: the page's ciphertext (`pageSize` bytes) followed by a trailer in clear (the version that
/// wrote the page, its number, the nonce and the authentication tag).
enum CipherLayout {
    /// The trailer after each page's ciphertext.
    static let trailerSize = 64
    /// Trailer fields (offsets from the trailer's start).
    static let trailerVersion = 0  // u64: the version whose commit wrote the page
    static let trailerPage = 8  // u32: the page's number
    static let trailerReserved = 12  // u32: 0
    static let trailerNonce = 16  // 12 bytes: the AES-GCM nonce
    static let trailerTag = 32  // 16 bytes: the AES-GCM tag
    /// The associated data: the trailer's first 16 bytes (version, page number, reserved).
    static let associatedDataSize = 16

    /// Key page fields (offsets from the page's start, at byte `2 * pageSize` of the file).
    static let keyMagic = 0  // u64: keyPageMagic
    static let keyLayoutVersion = 8  // u32: 1
    static let keyCipher = 12  // u32: 1 = AES-256-GCM, page keys from HKDF-SHA256
    static let keyPageSize = 16  // u32: the page size
    static let keyTrailerSize = 20  // u32: trailerSize
    static let keySalt = 24  // 32 bytes: random, the HKDF salt
    static let keyCheck = 56  // 32 bytes: HMAC-SHA256 of bytes [0, 56) under the check key
    static let saltSize = 32
    static let keyCheckedBytes = 56

    /// "STRATAKY" as a big-endian number (the bytes on disk read `YKATARTS`).
    static let keyPageMagic: UInt64 = 0x5354_5241_5441_4B59
    static let layoutVersion: UInt32 = 1
    static let cipherAESGCM: UInt32 = 1

    /// The file offset of the key page.
    @inline(__always)
    static func keyPageOffset(pageSize: Int) -> Int { 2 * pageSize }

    /// The file offset of page `n`'s sealed slot (`n >= 2`).
    @inline(__always)
    static func slotOffset(_ n: UInt32, pageSize: Int) -> Int {
        3 * pageSize + (Int(n) - 2) * (pageSize + trailerSize)
    }

    /// The bytes a file of `pages` pages needs (its meta pages, key page and sealed slots).
    static func fileBytes(forPages pages: Int, pageSize: Int) -> Int {
        pages <= 2 ? 3 * pageSize : slotOffset(UInt32(pages), pageSize: pageSize)
    }

    /// How many whole pages a file of `bytes` bytes holds (the inverse of `fileBytes`).
    static func pages(inFileBytes bytes: Int64, pageSize: Int) -> Int {
        let rest = Int(bytes) - 3 * pageSize
        return rest < 0 ? 2 : 2 + rest / (pageSize + trailerSize)
    }
}

/// The meta magic of an encrypted file: "STRATAEN" as a big-endian number. A build that does not
/// know encrypted files refuses it as not a Strata database, rather than reading ciphertext.
let encryptedFileMagic: UInt64 = 0x5354_5241_5441_454E
