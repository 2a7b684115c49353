internal import CCurl
import Foundation

/// SHA-256 through OpenSSL's libcrypto (the library libcurl's TLS already
/// loads), fed in pieces as a download arrives, so a file is hashed once,
/// while it is written, and a resumed download hashes the part on disk
/// first. The EVP context stays inside this file.
final class SHA256Digest {
    private let context: OpaquePointer

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `count` bytes at `bytes`.
    func update(_ bytes: UnsafeRawPointer, count: Int) {
        guard count > 0 else { return }
        EVP_DigestUpdate(context, bytes, count)
    }

    /// Adds `data`.
    func update(_ data: Data) {
        data.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { update(base, count: buffer.count) }
        }
    }

    /// The digest as 64 lowercase hex digits; the context is used up.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    /// The hex SHA-256 of `text`'s UTF-8 bytes (cache keys for URLs).
    static func hex(of text: String) -> String {
        let digest = SHA256Digest()
        digest.update(Data(text.utf8))
        return digest.finish()
    }

    /// Feeds the first `length` bytes of the file at `path` (a partial
    /// download being resumed); false when it cannot be read that far.
    func update(fileAt path: String, length: Int64) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var left = length
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while left > 0 {
            let wanted = Int(min(Int64(buffer.count), left))
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            guard got > 0 else { return false }
            buffer.withUnsafeBytes { update($0.baseAddress!, count: got) }
            left -= Int64(got)
        }
        return true
    }
}
