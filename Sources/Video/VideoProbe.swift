internal import CMpv
import Glibc

/// What a headless look at a video file found.
package struct VideoInfo: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// Frames per second of the container (0 when it does not say).
    package let framesPerSecond: Double
    /// Seconds, 0 when unknown (a stream).
    package let duration: Double
    package let codec: String
}

package enum VideoProbe {
    /// Opens `path` with a headless mpv core (`vo=null`, no audio) and waits
    /// until the first video frame is decoded: files that are missing,
    /// unreadable, not media, corrupt or without a decodable video stream
    /// fail here, with libmpv's reason, before any scene shows.
    package static func probe(path: String, timeout: Double = 15) throws(VideoError) -> VideoInfo {
        try checkReadable(path)
        let core = try MpvCore(
            path: path,
            options: [
                ("vo", "null"), ("ao", "null"), ("aid", "no"), ("sid", "no"), ("idle", "yes"),
                ("hwdec", "no"), ("msg-level", "all=no"), ("terminal", "no"),
            ])
        defer { core.destroy() }
        mpv_request_log_messages(core.handle, "error")
        core.command(["loadfile", path])
        let deadline = monotonicSeconds() + timeout
        var lastError = ""
        var loaded = false
        while monotonicSeconds() < deadline {
            guard let event = core.nextEvent(timeout: 0.25) else { continue }
            switch event {
            case let .log(prefix, _, text):
                lastError = "\(prefix): \(text)"
            case .fileLoaded:
                loaded = true
                guard let vid = core.string("vid"), vid != "no", vid != "" else {
                    throw VideoError(
                        path: path, isUnreadable: false,
                        reason: "has no video stream (libmpv found only \(trackSummary(core)))")
                }
            case .playbackRestart:
                // The first frame is decoded: it plays.
                return VideoInfo(
                    width: Int(core.double("width") ?? 0), height: Int(core.double("height") ?? 0),
                    framesPerSecond: core.double("container-fps") ?? 0, duration: core.double("duration") ?? 0,
                    codec: core.string("video-codec") ?? "unknown")
            case let .endFile(reason, error):
                let why =
                    reason == Int32(MPV_END_FILE_REASON_ERROR.rawValue)
                    ? MpvCore.errorString(error) : "playback ended before a video frame was decoded"
                throw VideoError(
                    path: path, isUnreadable: false,
                    reason:
                        "libmpv cannot play it as video: \(why)\(lastError.isEmpty ? "" : " (\(lastError))")\(loaded ? "" : "; is it a video file?")"
                )
            default:
                break
            }
        }
        throw VideoError(
            path: path, isUnreadable: false, reason: "libmpv decoded no video frame within \(Int(timeout)) s")
    }

    private static func trackSummary(_ core: MpvCore) -> String {
        let count = Int(core.double("track-list/count") ?? 0)
        let kinds = (0..<count).compactMap { core.string("track-list/\($0)/type") }
        return kinds.isEmpty ? "no streams" : kinds.joined(separator: ", ") + " streams"
    }

    /// Missing or unreadable files are exit 66, told apart from bad data
    /// before mpv sees them (mpv reports both as "loading failed").
    static func checkReadable(_ path: String) throws(VideoError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw VideoError(
                path: path, isUnreadable: true, reason: "cannot read it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw VideoError(path: path, isUnreadable: true, reason: "is a directory, not a video file")
        }
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
