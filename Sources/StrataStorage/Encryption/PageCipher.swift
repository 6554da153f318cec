internal import Crypto
internal import Foundation

#if canImport(CCryptoBoringSSL)
    // swift-crypto's BoringSSL (the package pins swift-crypto to one exact version): its AEAD
    // opens a sealed page straight into the page it goes to. See `PageCipher.open`.
    internal import CCryptoBoringSSL
#endif

/// Seals and opens the pages of an encrypted file with AES-256-GCM (swift-crypto), under keys
/// derived with HKDF-SHA256 from the 64-byte key the user gives and the file's random salt.
///
/// Each page is sealed whole with a fresh random 96-bit nonce; the associated data is the page's
/// trailer head (the version that wrote the page and the page's number), so a page moved to
/// another place, or sealed for another file (another salt, so another key), or changed in any
/// byte fails to open. FORMAT.md, "Encrypted files", describes the bytes.
///
/// Where swift-crypto uses BoringSSL (Linux), pages are sealed and opened through BoringSSL's
/// AEAD interface with one context made at creation: swift-crypto's `AES.GCM` makes a context per
/// call, copies the ciphertext and tag into a new `SealedBox`, and returns the plaintext in a new
/// buffer, which cost a cold scan of an encrypted file more than the cipher itself
/// (Docs/Performance.md, "The encrypted cold scan"). Same algorithm, keys and bytes either way.
///
/// ## Concurrency
/// Immutable after creation: any thread may seal and open at any time (BoringSSL allows seal and
/// open calls on one context from any number of threads at once).
final class PageCipher: @unchecked Sendable {
    let pageSize: Int
    private let pageKey: SymmetricKey
    private let checkKey: SymmetricKey
    #if canImport(CCryptoBoringSSL)
        /// BoringSSL's AES-256-GCM context for `pageKey`.
        private let context: UnsafeMutablePointer<EVP_AEAD_CTX>
    #endif

    /// Whether pages go through BoringSSL's AEAD calls (true wherever swift-crypto carries
    /// BoringSSL, as on Linux) rather than `AES.GCM`; a test holds Linux builds to it.
    #if canImport(CCryptoBoringSSL)
        static let opensInPlace = true
    #else
        static let opensInPlace = false
    #endif

    /// The length of the key the user gives, as RealmSwift's `encryptionKey`.
    static let userKeyLength = 64

    /// Derives the page key and the key-check key from `key` (64 bytes) and `salt` (32 bytes).
    init(key: [UInt8], salt: UnsafeRawBufferPointer, pageSize: Int) {
        precondition(key.count == Self.userKeyLength, "encryption keys are checked for length before use")
        let material = SymmetricKey(data: key)
        pageKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: salt, info: Array("strata page key 1".utf8), outputByteCount: 32)
        checkKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: salt, info: Array("strata key check 1".utf8), outputByteCount: 32)
        self.pageSize = pageSize
        #if canImport(CCryptoBoringSSL)
            context = .allocate(capacity: 1)
            context.initialize(to: EVP_AEAD_CTX())
            let made = pageKey.withUnsafeBytes { key in
                CCryptoBoringSSL_EVP_AEAD_CTX_init(
                    context, CCryptoBoringSSL_EVP_aead_aes_256_gcm(),
                    key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count, 16, nil)
            }
            // Fails only for a key of the wrong length or an allocation failure.
            precondition(made == 1, "BoringSSL could not make an AES-256-GCM context")
        #endif
    }

    deinit {
        #if canImport(CCryptoBoringSSL)
            CCryptoBoringSSL_EVP_AEAD_CTX_cleanup(context)
            context.deallocate()
        #endif
    }

    /// Writes a new key page for a file of this page size into `page` (`pageSize` bytes): a
    /// fresh random salt, and the key check for `key`. Returns the cipher for that salt.
    static func makeKeyPage(key: [UInt8], into page: UnsafeMutableRawPointer, pageSize: Int) -> PageCipher {
        zeroBytes(page, pageSize)
        page.setU64(CipherLayout.keyMagic, CipherLayout.keyPageMagic)
        page.setU32(CipherLayout.keyLayoutVersion, CipherLayout.layoutVersion)
        page.setU32(CipherLayout.keyCipher, CipherLayout.cipherAESGCM)
        page.setU32(CipherLayout.keyPageSize, UInt32(pageSize))
        page.setU32(CipherLayout.keyTrailerSize, UInt32(CipherLayout.trailerSize))
        var generator = SystemRandomNumberGenerator()
        for i in 0..<CipherLayout.saltSize { page.setU8(CipherLayout.keySalt + i, generator.next()) }
        let cipher = PageCipher(
            key: key, salt: UnsafeRawBufferPointer(start: page + CipherLayout.keySalt, count: CipherLayout.saltSize),
            pageSize: pageSize)
        let code = HMAC<SHA256>.authenticationCode(
            for: UnsafeRawBufferPointer(start: page, count: CipherLayout.keyCheckedBytes), using: cipher.checkKey)
        code.withUnsafeBytes { (page + CipherLayout.keyCheck).copyMemory(from: $0.baseAddress!, byteCount: 32) }
        return cipher
    }

    /// Reads the key page `page` of an encrypted file and checks `key` against it.
    /// - Returns: the cipher, or why the page or the key does not fit.
    static func open(keyPage page: UnsafeRawPointer, key: [UInt8], pageSize: Int, path: String) throws -> PageCipher {
        guard page.u64(CipherLayout.keyMagic) == CipherLayout.keyPageMagic,
            page.u32(CipherLayout.keyLayoutVersion) == CipherLayout.layoutVersion,
            page.u32(CipherLayout.keyCipher) == CipherLayout.cipherAESGCM,
            Int(page.u32(CipherLayout.keyPageSize)) == pageSize,
            Int(page.u32(CipherLayout.keyTrailerSize)) == CipherLayout.trailerSize
        else {
            throw StorageError.corruptPage(
                path: path, page: 0, reason: "the key page of the encrypted file is damaged or of an unknown kind")
        }
        let cipher = PageCipher(
            key: key, salt: UnsafeRawBufferPointer(start: page + CipherLayout.keySalt, count: CipherLayout.saltSize),
            pageSize: pageSize)
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                UnsafeRawBufferPointer(start: page + CipherLayout.keyCheck, count: 32),
                authenticating: UnsafeRawBufferPointer(start: page, count: CipherLayout.keyCheckedBytes),
                using: cipher.checkKey)
        else { throw StorageError.wrongEncryptionKey(path: path) }
        return cipher
    }

    /// Seals page `n` (`pageSize` bytes at `page`), written by `version`, into `slot`
    /// (`pageSize + CipherLayout.trailerSize` bytes).
    func seal(_ page: UnsafeRawPointer, number n: UInt32, version: UInt64, into slot: UnsafeMutableRawPointer) {
        let trailer = slot + pageSize
        zeroBytes(trailer, CipherLayout.trailerSize)
        trailer.setU64(CipherLayout.trailerVersion, version)
        trailer.setU32(CipherLayout.trailerPage, n)
        let nonce = AES.GCM.Nonce()
        #if canImport(CCryptoBoringSSL)
            nonce.withUnsafeBytes {
                (trailer + CipherLayout.trailerNonce).copyMemory(from: $0.baseAddress!, byteCount: 12)
            }
            var tagLength = 0
            let sealed = CCryptoBoringSSL_EVP_AEAD_CTX_seal_scatter(
                context, slot.assumingMemoryBound(to: UInt8.self),
                (trailer + CipherLayout.trailerTag).assumingMemoryBound(to: UInt8.self), &tagLength, 16,
                (trailer + CipherLayout.trailerNonce).assumingMemoryBound(to: UInt8.self), 12,
                page.assumingMemoryBound(to: UInt8.self), pageSize, nil, 0,
                trailer.assumingMemoryBound(to: UInt8.self), CipherLayout.associatedDataSize)
            // AES-GCM sealing fails only for arguments of the wrong size, which these are not.
            precondition(sealed == 1 && tagLength == 16, "BoringSSL could not seal a page")
        #else
            // AES-GCM fails only for a key or nonce of the wrong size, which these are not.
            let box = try! AES.GCM.seal(
                UnsafeRawBufferPointer(start: page, count: pageSize), using: pageKey, nonce: nonce,
                authenticating: UnsafeRawBufferPointer(start: trailer, count: CipherLayout.associatedDataSize))
            box.ciphertext.withUnsafeBytes { slot.copyMemory(from: $0.baseAddress!, byteCount: pageSize) }
            nonce.withUnsafeBytes {
                (trailer + CipherLayout.trailerNonce).copyMemory(from: $0.baseAddress!, byteCount: 12)
            }
            box.tag.withUnsafeBytes {
                (trailer + CipherLayout.trailerTag).copyMemory(from: $0.baseAddress!, byteCount: 16)
            }
        #endif
    }

    /// Opens the sealed slot of page `n` into `page` (`pageSize` bytes).
    /// - Returns: nil, or why the slot does not open (`page` then holds zeros or is unchanged:
    ///   either way nothing of the slot).
    func open(_ slot: UnsafeRawPointer, number n: UInt32, into page: UnsafeMutableRawPointer) -> String? {
        let trailer = slot + pageSize
        let named = trailer.u32(CipherLayout.trailerPage)
        guard named == n else { return "its sealed trailer names page \(named) (a page moved from elsewhere)" }
        #if canImport(CCryptoBoringSSL)
            let opened = CCryptoBoringSSL_EVP_AEAD_CTX_open_gather(
                context, page.assumingMemoryBound(to: UInt8.self),
                (trailer + CipherLayout.trailerNonce).assumingMemoryBound(to: UInt8.self), 12,
                slot.assumingMemoryBound(to: UInt8.self), pageSize,
                (trailer + CipherLayout.trailerTag).assumingMemoryBound(to: UInt8.self), 16,
                trailer.assumingMemoryBound(to: UInt8.self), CipherLayout.associatedDataSize)
            if opened == 1 { return nil }
            CCryptoBoringSSL_ERR_clear_error()
            return Self.failedAuthentication(trailer)
        #else
            return openWithSealedBox(slot, trailer: trailer, into: page)
        #endif
    }

    /// Why a slot whose trailer is `trailer` failed authentication.
    static func failedAuthentication(_ trailer: UnsafeRawPointer) -> String {
        "it fails authentication (written by version \(trailer.u64(CipherLayout.trailerVersion))): changed since it was sealed, sealed for another file, or sealed under another key"
    }

    /// `open` through swift-crypto's `AES.GCM` (where it does not use BoringSSL).
    func openWithSealedBox(
        _ slot: UnsafeRawPointer, trailer: UnsafeRawPointer, into page: UnsafeMutableRawPointer
    )
        -> String?
    {
        do {
            let nonce = try AES.GCM.Nonce(
                data: UnsafeRawBufferPointer(start: trailer + CipherLayout.trailerNonce, count: 12))
            let box = try AES.GCM.SealedBox(
                nonce: nonce, ciphertext: UnsafeRawBufferPointer(start: slot, count: pageSize),
                tag: UnsafeRawBufferPointer(start: trailer + CipherLayout.trailerTag, count: 16))
            let plain = try AES.GCM.open(
                box, using: pageKey,
                authenticating: UnsafeRawBufferPointer(start: trailer, count: CipherLayout.associatedDataSize))
            guard plain.count == pageSize else { return "it opened to \(plain.count) bytes" }
            plain.withUnsafeBytes { page.copyMemory(from: $0.baseAddress!, byteCount: pageSize) }
            return nil
        } catch {
            return Self.failedAuthentication(trailer)
        }
    }
}
