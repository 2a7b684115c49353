// Image files for tests, made at test time: GIF, WebP and JPEG by ffmpeg
// (a Debian package the setup installs), SVG as text, EXIF orientation by
// a hand-built APP1 segment spliced into a JPEG.
public import Foundation

/// Writes test images into a directory.
public enum TestImages {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs ffmpeg with `filter` (a lavfi graph) and output options; throws
    /// with ffmpeg's stderr when it fails.
    private static func ffmpeg(_ arguments: [String]) throws {
        let result = try runProcess("ffmpeg", ["-loglevel", "error", "-y"] + arguments, timeout: 60)
        guard result.status == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
    }

    /// Writes a PPM of `width` x `height` pixels, `top` above `bottom` (or,
    /// with `sideBySide`, `top` on the left).
    private static func frame(
        top: RGB, bottom: RGB, width: Int, height: Int, sideBySide: Bool = false, to path: String
    ) throws {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let color = (sideBySide ? x < width / 2 : y < height / 2) ? top : bottom
                let i = (y * width + x) * 3
                pixels[i] = color.r
                pixels[i + 1] = color.g
                pixels[i + 2] = color.b
            }
        }
        try RigImage(width: width, height: height, pixels: pixels).writePPM(to: path)
    }

    /// A PNG, compressed by ffmpeg: the left half `left`, the right half `right`.
    public static func png(left: RGB, right: RGB, width: Int, height: Int, to path: String) throws {
        let source = path + ".ppm"
        defer { try? FileManager.default.removeItem(atPath: source) }
        try frame(top: left, bottom: right, width: width, height: height, sideBySide: true, to: source)
        try ffmpeg(["-i", source, "-frames:v", "1", "-f", "image2", "-c:v", "png", path])
    }

    /// A GIF (or, with `webp: true`, a lossless WebP) with one frame per
    /// colour, each shown `frameSeconds`, looping forever (or, with
    /// `once`, played once); one colour makes a still image. (Frames go in
    /// as PPM files: ffmpeg's concat of lavfi colour sources drops the last one.)
    public static func animation(
        _ colors: [RGB], frameSeconds: Double, width: Int = 64, height: Int = 48, webp: Bool = false,
        once: Bool = false, to path: String
    ) throws {
        let frames = path + ".frames"
        try FileManager.default.createDirectory(atPath: frames, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: frames) }
        for (index, color) in colors.enumerated() {
            try frame(
                top: color, bottom: color, width: width, height: height, to: frames + String(format: "/%03d.ppm", index)
            )
        }
        let rate = "1000/\(Int((frameSeconds * 1000).rounded()))"
        let format = webp ? ["-c:v", "libwebp_anim", "-lossless", "1", "-f", "webp"] : ["-f", "gif"]
        // ffmpeg's GIF muxer: -1 writes no loop extension (play once); libwebp_anim: 1 plays once.
        let loop = once ? (webp ? "1" : "-1") : "0"
        try ffmpeg(["-framerate", rate, "-i", frames + "/%03d.ppm", "-loop", loop] + format + [path])
    }

    /// A still WebP, lossless: the top half `top`, the bottom half `bottom`.
    public static func webp(top: RGB, bottom: RGB, width: Int = 64, height: Int = 48, to path: String) throws {
        try still(
            top: top, bottom: bottom, width: width, height: height,
            output: ["-c:v", "libwebp", "-lossless", "1", "-f", "webp", path])
    }

    /// A baseline JPEG: the top half `top`, the bottom half `bottom`; with
    /// `orientation` (EXIF 1-8), an EXIF segment saying how to turn it.
    public static func jpeg(
        top: RGB, bottom: RGB, width: Int = 64, height: Int = 32, orientation: Int? = nil, to path: String
    ) throws {
        try still(
            top: top, bottom: bottom, width: width, height: height,
            output: ["-q:v", "2", "-f", "image2", "-c:v", "mjpeg", path])
        guard let orientation else { return }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try withEXIFOrientation(data, orientation).write(to: URL(fileURLWithPath: path))
    }

    private static func still(top: RGB, bottom: RGB, width: Int, height: Int, output: [String]) throws {
        let source = output.last! + ".ppm"
        defer { try? FileManager.default.removeItem(atPath: source) }
        try frame(top: top, bottom: bottom, width: width, height: height, to: source)
        try ffmpeg(["-i", source, "-frames:v", "1"] + output)
    }

    /// `jpeg` with an EXIF APP1 segment (little-endian TIFF, one IFD entry:
    /// Orientation) right after the start-of-image marker.
    public static func withEXIFOrientation(_ jpeg: Data, _ orientation: Int) -> Data {
        precondition(jpeg.starts(with: [0xFF, 0xD8]), "not a JPEG")
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00]  // "II", 42, IFD at 8
        tiff += [0x01, 0x00]  // one entry
        tiff += [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(orientation), 0x00, 0x00, 0x00]  // SHORT, 1
        tiff += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
    }

    /// An SVG document as text.
    public static func svg(width: String?, height: String?, viewBox: String?, body: String) -> String {
        let attributes = [
            width.map { "width=\"\($0)\"" }, height.map { "height=\"\($0)\"" }, viewBox.map { "viewBox=\"\($0)\"" },
        ].compactMap { $0 }.joined(separator: " ")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" \(attributes)>
            \(body)
            </svg>
            """
    }

    /// The first half of a file, for "truncated" cases.
    public static func truncate(_ path: String, to newPath: String, keeping fraction: Double = 0.5) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: newPath))
    }
}
