import Foundation

/// Brings one file a remote playlist names into the cache: nothing when a
/// verified copy is there, a `Range` resume of a download a crash or a
/// broken connection cut short, else a new download; then the size and
/// hash are checked and the file is renamed into `media/`. Runs on the
/// playlist source's thread.
struct MediaDownload {
    let cache: MediaCache
    let fetcher: HTTPFetcher
    let maxFileBytes: Int64

    /// The cached path of `file`, or why it could not be had.
    func fetch(_ file: RemoteFile) -> Result<String, HTTPFailure> {
        func fail(_ kind: HTTPFailure.Kind, _ reason: String) -> Result<String, HTTPFailure> {
            .failure(HTTPFailure(kind: kind, url: file.url, reason: reason))
        }
        let expected = file.integrity
        if let bytes = expected.bytes, bytes > maxFileBytes {
            return fail(
                .tooLarge,
                "\(file.jsonPath) says \(bytes) bytes, more than --max-file-size \(maxFileBytes); make it smaller or raise the limit"
            )
        }
        if let sha = expected.sha256 {
            let path = cache.mediaPath(sha256: sha, name: file.name)
            if MediaCache.fileSize(path).map({ expected.bytes == nil || $0 == expected.bytes }) == true {
                return .success(path)
            }
        }
        let key = MediaCache.key(file.url)
        let urlRecordPath = cache.urls + "/" + key + ".json"
        // Without a hash in the playlist, ask whether the cached copy is still current.
        var known: (path: String, etag: String?, lastModified: String?)?
        if expected.sha256 == nil, let record = MediaCache.readRecord(urlRecordPath), record["url"] == file.url,
            let sha = record["sha256"], let name = record["name"]
        {
            let path = cache.mediaPath(sha256: sha, name: name)
            if FileManager.default.fileExists(atPath: path) {
                known = (path, record["etag"], record["last_modified"])
            }
        }
        let part = cache.partial + "/" + key + ".part"
        let partRecordPath = cache.partial + "/" + key + ".json"
        let fd = open(part, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            return fail(.transport, "cannot write \(part): \(String(cString: strerror(errno))); check the cache folder")
        }
        defer { close(fd) }
        // A part from before (a crash, a broken connection): resume it when
        // its validator is known, checking its bytes into the hash first.
        let digest = SHA256Digest()
        var rangeFrom: Int64 = 0
        var validator: String?
        if known == nil, let record = MediaCache.readRecord(partRecordPath), record["url"] == file.url,
            let recorded = record["validator"], let size = MediaCache.fileSize(part), size > 0,
            size <= (expected.bytes ?? maxFileBytes), digest.update(fileAt: part, length: size)
        {
            rangeFrom = size
            validator = recorded
        }
        lseek(fd, off_t(rangeFrom), SEEK_SET)
        let outcome = fetcher.download(
            file.url, into: fd, rangeFrom: rangeFrom, validator: validator,
            conditional: known.map { ($0.etag, $0.lastModified) },
            limit: min(expected.bytes ?? maxFileBytes, maxFileBytes), digest: digest
        ) { etag, lastModified in
            // The first byte arrived: from now on a crash leaves a part that can be resumed.
            if let validator = etag ?? lastModified {
                MediaCache.writeRecord(["url": file.url, "validator": validator], to: partRecordPath)
            }
        }
        switch outcome {
        case let .failure(failure):
            if failure.kind != .truncated {
                unlink(part)
                unlink(partRecordPath)
            }
            if failure.kind == .tooLarge, let bytes = expected.bytes, bytes < maxFileBytes {
                return fail(
                    .tooLarge,
                    "the server sent more than the \(bytes) bytes \(file.jsonPath) says; upload the right file or fix \"bytes\""
                )
            }
            return .failure(failure)
        case let .success((response, digest, size)):
            if response.status == 304, let known {
                unlink(part)
                return .success(known.path)
            }
            let actual = digest.finish()
            var wrong: String?
            if let bytes = expected.bytes, bytes != size {
                wrong =
                    "\(file.jsonPath) says \(bytes) bytes, the server sent \(size); upload the file again or fix \"bytes\""
            } else if let sha = expected.sha256, sha != actual {
                wrong =
                    "wrong SHA-256: \(file.jsonPath) expects \(sha), the file downloaded (\(size) bytes) has \(actual); upload the file again, or fix \"sha256\" (sha256sum prints it)"
            }
            if let wrong {
                // Not the file the playlist names: never resumed, never used.
                unlink(part)
                unlink(partRecordPath)
                return fail(.mismatch, wrong)
            }
            guard fsync(fd) == 0 else {
                return fail(
                    .transport, "cannot write \(part): \(String(cString: strerror(errno))); check the cache folder")
            }
            let path = cache.mediaPath(sha256: actual, name: file.name)
            guard rename(part, path) == 0 else {
                return fail(.transport, "cannot move the download to \(path): \(String(cString: strerror(errno)))")
            }
            MediaCache.syncFolder(of: path)
            unlink(partRecordPath)
            var record = ["url": file.url, "sha256": actual, "name": file.name]
            record["etag"] = response.etag
            record["last_modified"] = response.lastModified
            MediaCache.writeRecord(record, to: urlRecordPath)
            return .success(path)
        }
    }
}
