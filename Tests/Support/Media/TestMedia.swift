import Foundation

/// Video clips made at test time with ffmpeg (Debian's package, from
/// scripts/setup.sh), never downloaded. Each lands in a fresh temp dir.
public enum TestMedia {
    /// Where clips go; removed by the caller (`remove`).
    public static func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "screenplay-media-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// One second each of solid red, green and blue (H.264 in MP4 unless
    /// `container` says otherwise), at `fps`.
    public static func colourSequence(
        in dir: String, name: String = "rgb", container: String = "mp4", fps: Int = 30,
        width: Int = 320, height: Int = 180
    ) throws -> String {
        let path = "\(dir)/\(name).\(container)"
        let colours = ["red", "lime", "blue"]
        var args = ["-v", "error", "-y"]
        for colour in colours { args += ["-f", "lavfi", "-i", "color=c=\(colour):s=\(width)x\(height):r=\(fps):d=1"] }
        args +=
            [
                "-filter_complex", "[0][1][2]concat=n=3:v=1[v]", "-map", "[v]",
            ] + codecArguments(container: container) + [path]
        try ffmpeg(args)
        return path
    }

    /// `seconds` of a clip whose left half is `left` and right half `right`
    /// (ffmpeg colour names), each half `width` x `height`: a wall's two
    /// tiles each show one colour. `stacked`: `left` on top of `right`
    /// instead, which shows a picture drawn upside down.
    public static func halves(
        in dir: String, name: String = "halves", left: String, right: String, seconds: Int, fps: Int = 30,
        width: Int = 320, height: Int = 180, stacked: Bool = false
    ) throws -> String {
        let path = "\(dir)/\(name).mp4"
        var args = ["-v", "error", "-y"]
        for colour in [left, right] {
            args += ["-f", "lavfi", "-i", "color=c=\(colour):s=\(width)x\(height):r=\(fps):d=\(seconds)"]
        }
        let stack = stacked ? "vstack" : "hstack"
        args += ["-filter_complex", "[0][1]\(stack)=inputs=2[v]", "-map", "[v]"] + codecArguments(container: "mp4")
        try ffmpeg(args + [path])
        return path
    }

    /// `seconds` of one picture (a PNG at `picture`) stored losslessly as
    /// RGB (FFV1 in Matroska), at `fps`: every pixel decodes to the
    /// picture's own, so a test can tell which pixel of the video a screen
    /// shows (a wall's coordinate picture, `writeCoordinatePicture`).
    public static func still(in dir: String, name: String, picture: String, seconds: Int, fps: Int = 30) throws
        -> String
    {
        let path = "\(dir)/\(name).mkv"
        try ffmpeg([
            "-v", "error", "-y", "-loop", "1", "-framerate", "\(fps)", "-i", picture, "-t", "\(seconds)", "-c:v",
            "ffv1",
            "-pix_fmt", "bgr0", path,
        ])
        return path
    }

    /// `seconds` of ffmpeg's moving test pattern with a frame counter
    /// (`testsrc2`), optionally with a sine tone as an audio track.
    public static func pattern(
        in dir: String, name: String = "pattern", seconds: Double, fps: Int, width: Int = 640, height: Int = 360,
        withAudio: Bool = false, container: String = "mp4"
    ) throws -> String {
        let path = "\(dir)/\(name).\(container)"
        var args = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=\(fps):d=\(seconds)"]
        if withAudio {
            args += ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-c:a", "aac", "-shortest"]
        }
        args += codecArguments(container: container) + [path]
        try ffmpeg(args)
        return path
    }

    /// The first `fraction` of `path`'s bytes, as a truncated copy.
    public static func truncated(_ path: String, fraction: Double, to output: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: output))
        return output
    }

    public static func remove(_ dir: String) { try? FileManager.default.removeItem(atPath: dir) }

    private static func codecArguments(container: String) -> [String] {
        switch container {
        case "webm": return ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "400k"]
        // faststart puts the index first, so a truncated copy still opens
        // (and then fails part-way, as a cut-off download does).
        case "mp4", "mov":
            return ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
        default: return ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
        }
    }

    private static func ffmpeg(_ args: [String]) throws {
        let result = try runProcess(
            "/usr/bin/ffmpeg", args, environment: ProcessInfo.processInfo.environment, timeout: 120)
        guard result.status == 0 else {
            throw RigError(
                "ffmpeg \(args.joined(separator: " ")) failed (\(result.status)): \(result.stderr); install it with scripts/setup.sh"
            )
        }
    }
}
