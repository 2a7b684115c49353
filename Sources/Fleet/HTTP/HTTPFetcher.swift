internal import CCurl
import Foundation
import Signage

/// Blocking HTTP(S) transfers with libcurl's easy interface, for the
/// playlist source's own thread (never the main thread: see
/// `RemotePlaylistSource`). One handle is reused, so connections to the
/// same server are kept alive between the playlist and its files. Every
/// libcurl type stays inside this file.
final class HTTPFetcher {
    private let settings: HTTPSettings
    private let handle: UnsafeMutableRawPointer
    private let cancelled: @Sendable () -> Bool

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    init?(settings: HTTPSettings, cancelled: @escaping @Sendable () -> Bool) {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        self.settings = settings
        self.handle = handle
        self.cancelled = cancelled
    }

    deinit { curl_easy_cleanup(handle) }

    /// GET into memory (the playlist), at most `limit` bytes, with the
    /// validators of the copy held: a 304 answer costs one small request.
    func get(_ url: String, etag: String?, lastModified: String?, limit: Int64) -> Result<HTTPResponse, HTTPFailure> {
        var headers: [String] = []
        if let etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        let transfer = Transfer(limit: limit, fd: -1, rangeFrom: 0, digest: nil)
        return perform(url, headers: headers, range: nil, transfer: transfer, timeout: settings.playlistTimeout).map {
            var response = $0
            response.body = transfer.body
            return response
        }
    }

    /// GET into the open file `fd`, continuing at `rangeFrom` (with
    /// `If-Range: validator`, so a file changed on the server restarts
    /// from byte 0 instead of splicing two versions). `digest` must already
    /// hold the first `rangeFrom` bytes; it is replaced when the server
    /// sends the whole file. The file never grows past `limit`.
    /// `conditional` (ETag, Last-Modified of a cached copy) lets the server
    /// answer 304; `onStart` gets the response's validators as its first
    /// body byte arrives, before anything is written.
    func download(
        _ url: String, into fd: Int32, rangeFrom: Int64, validator: String?, conditional: (String?, String?)?,
        limit: Int64, digest: SHA256Digest, onStart: @escaping (String?, String?) -> Void
    ) -> Result<(HTTPResponse, digest: SHA256Digest, size: Int64), HTTPFailure> {
        let resume = rangeFrom > 0 && validator != nil
        let transfer = Transfer(limit: limit, fd: fd, rangeFrom: resume ? rangeFrom : 0, digest: digest)
        transfer.onStart = onStart
        if !resume {
            ftruncate(fd, 0)
            lseek(fd, 0, SEEK_SET)
            transfer.digest = SHA256Digest()
        }
        var headers = resume ? ["If-Range: \(validator!)"] : []
        if !resume, let (etag, lastModified) = conditional {
            if let etag { headers.append("If-None-Match: \(etag)") }
            if let lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        }
        return perform(url, headers: headers, range: resume ? "\(rangeFrom)-" : nil, transfer: transfer, timeout: 0)
            .flatMap { response in
                if response.status == 206, transfer.contentRangeStart != rangeFrom {
                    return .failure(
                        HTTPFailure(
                            kind: .mismatch, url: url,
                            reason:
                                "asked for bytes from \(rangeFrom), the server sent a range starting at \(transfer.contentRangeStart.map(String.init) ?? "an unknown byte"); the download restarts"
                        ))
                }
                return .success((response, transfer.digest!, transfer.rangeFrom + transfer.received))
            }
    }

    // MARK: the transfer

    private func perform(_ url: String, headers: [String], range: String?, transfer: Transfer, timeout: Int)
        -> Result<HTTPResponse, HTTPFailure>
    {
        curl_easy_reset(handle)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers + (settings.authorization.map { ["Authorization: \($0)"] } ?? []) {
            list = curl_slist_append(list, header)
        }
        defer { curl_slist_free_all(list) }
        transfer.cancelled = cancelled
        let user = Unmanaged.passUnretained(transfer).toOpaque()
        _ = sp_curl_set_string(handle, CURLOPT_URL, url)
        // Only the web: a playlist cannot make the box read file:// or talk to other protocols.
        _ = sp_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = sp_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = sp_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = sp_curl_set_long(handle, CURLOPT_MAXREDIRS, settings.maxRedirects)
        _ = sp_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        _ = sp_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = settings.caFile { _ = sp_curl_set_string(handle, CURLOPT_CAINFO, caFile) }
        _ = sp_curl_set_string(handle, CURLOPT_USERAGENT, settings.userAgent)
        _ = sp_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, settings.connectTimeout)
        _ = sp_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, settings.lowSpeedSeconds)
        _ = sp_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedBytes)
        _ = sp_curl_set_long(handle, CURLOPT_TIMEOUT, timeout)
        // Threads: no SIGALRM for DNS timeouts.
        _ = sp_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = sp_curl_set_offset(
            handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(0, transfer.limit - transfer.rangeFrom)))
        _ = sp_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = sp_curl_set_headers(handle, list)
        if let range { _ = sp_curl_set_string(handle, CURLOPT_RANGE, range) }
        _ = sp_curl_set_write_function(handle, writeBody)
        _ = sp_curl_set_pointer(handle, CURLOPT_WRITEDATA, user)
        _ = sp_curl_set_header_function(handle, readHeader)
        _ = sp_curl_set_pointer(handle, CURLOPT_HEADERDATA, user)
        _ = sp_curl_set_progress_function(handle, progress)
        _ = sp_curl_set_pointer(handle, CURLOPT_XFERINFODATA, user)
        _ = sp_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)

        let code = curl_easy_perform(handle)
        let finalURL = sp_curl_effective_url(handle).map { String(cString: $0) } ?? url
        let status = Int(sp_curl_response_code(handle))
        let response = HTTPResponse(
            status: status, etag: transfer.etag, lastModified: transfer.lastModified, url: finalURL)
        func failure(_ kind: HTTPFailure.Kind, _ reason: String) -> Result<HTTPResponse, HTTPFailure> {
            .failure(HTTPFailure(kind: kind, url: url, reason: reason))
        }
        if transfer.cancelled?() == true, code != CURLE_OK { return failure(.cancelled, "stopped") }
        if transfer.exceeded || code == CURLE_FILESIZE_EXCEEDED {
            return failure(
                .tooLarge,
                "larger than the limit of \(transfer.limit) bytes; make the file smaller or raise the limit")
        }
        if transfer.writeError != 0 {
            return failure(
                .transport, "cannot write the download to the cache: \(String(cString: strerror(transfer.writeError)))")
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            switch code {
            case CURLE_TOO_MANY_REDIRECTS:
                return failure(
                    .transport,
                    "more than \(settings.maxRedirects) redirects (a redirect loop?); point the URL at the file itself")
            case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_OPERATION_TIMEDOUT:
                return failure(
                    .truncated,
                    "the transfer broke off after \(transfer.received) bytes (\(text)); it resumes at the next try")
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR:
                return failure(
                    .transport,
                    "TLS failed: \(text) (a private CA? give its certificate with --ca-file)")
            default:
                // A refused socket reads "Couldn't connect" or "Could not resolve host": say which setting refused it.
                let system = Int32(truncatingIfNeeded: sp_curl_os_errno(handle))
                return failure(
                    .transport,
                    NetworkSandbox.explained("\(text) (curl error \(code.rawValue))", error: system == 0 ? nil : system)
                )
            }
        }
        switch status {
        case 200, 206, 304: return .success(response)
        default:
            let hint =
                switch status {
                case 401, 403: "check the token in --token-file and the server's access rules"
                case 404, 410: "upload the file, or fix the URL"
                case 500...599: "the server failed; look at its error log"
                default: "the server answered with something play cannot use"
                }
            return failure(.status(status), "HTTP \(status) (\(hint))")
        }
    }
}

/// One transfer's state, reached from libcurl's callbacks through their user pointer.
private final class Transfer {
    let limit: Int64
    let fd: Int32
    var rangeFrom: Int64
    var digest: SHA256Digest?
    var body = Data()
    var received: Int64 = 0
    var status = 0
    var etag: String?
    var lastModified: String?
    var contentRangeStart: Int64?
    var exceeded = false
    var writeError: Int32 = 0
    var cancelled: (@Sendable () -> Bool)?
    var onStart: ((String?, String?) -> Void)?
    /// Whether the body of this response has started (a 200 to a range request restarts the file once).
    var started = false

    init(limit: Int64, fd: Int32, rangeFrom: Int64, digest: SHA256Digest?) {
        self.limit = limit
        self.fd = fd
        self.rangeFrom = rangeFrom
        self.digest = digest
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
    }

    /// A header line; a status line starts a new response (after a redirect or a 100).
    func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            status = trimmed.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            etag = nil
            lastModified = nil
            contentRangeStart = nil
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "etag": etag = value
        case "last-modified": lastModified = value
        case "content-range":
            // "bytes 100-999/1000"
            let spec = value.split(separator: " ").dropFirst().first ?? ""
            contentRangeStart = spec.split(separator: "-").first.flatMap { Int64($0) }
        default: break
        }
    }

    /// Body bytes: into memory or the file (only for a 200 or 206: an error
    /// page never lands in the cache), counted against the limit.
    func body(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard status == 200 || status == 206 else { return true }
        if !started {
            started = true
            if status == 200, rangeFrom > 0, fd >= 0 {
                // The server sent the whole file (it changed, or it ignores
                // ranges): start the file and its hash again.
                ftruncate(fd, 0)
                lseek(fd, 0, SEEK_SET)
                rangeFrom = 0
                digest = SHA256Digest()
            }
            onStart?(etag, lastModified)
        }
        received += Int64(count)
        if rangeFrom + received > limit {
            exceeded = true
            return false
        }
        if fd < 0 {
            body.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
            return true
        }
        var offset = 0
        while offset < count {
            let written = write(fd, bytes + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                writeError = errno
                return false
            }
            offset += written
        }
        digest?.update(bytes, count: count)
        return true
    }
}

private let writeBody: sp_curl_data_callback = { data, size, count, user in
    let total = size * count
    guard let data else { return 0 }
    return Transfer.from(user).body(data, count: total) ? total : 0
}

private let readHeader: sp_curl_data_callback = { data, size, count, user in
    let total = size * count
    if let data {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: total), as: UTF8.self)
        Transfer.from(user).header(line)
    }
    return total
}

private let progress: sp_curl_progress_callback = { user, _, _, _, _ in
    Transfer.from(user).cancelled?() == true ? 1 : 0
}
