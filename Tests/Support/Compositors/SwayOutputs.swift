// What the rig reads of sway: its outputs' JSON, grim's captures, whether a socket listens.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs grim for one output and decodes its PPM (no PNG round trip, and exact pixels).
func captureWithGrim(output: String, environment: [String: String], scratch: String) throws -> RigImage {
    let path = "\(scratch)/capture-\(UUID().uuidString).ppm"
    defer { unlink(path) }
    let result = try runProcess("grim", ["-o", output, "-t", "ppm", path], environment: environment, timeout: 20)
    guard result.status == 0 else {
        throw RigError("grim -o \(output) failed (status \(result.status)): \(result.stderr)")
    }
    return try RigImage(contentsOf: path)
}

/// True when something listens on the Unix socket at `path`.
func socketAcceptsConnections(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    return rc == 0
}

extension RigOutput {
    func matches(_ mode: OutputMode) -> Bool {
        width == mode.width && height == mode.height
            && abs(refreshMilliHz - Int((mode.refreshHz * 1000).rounded())) <= 500
    }
}

/// The subset of sway's get_outputs JSON the rig uses.
struct RawOutput: Decodable {
    struct Mode: Decodable {
        var width: Int
        var height: Int
        var refresh: Int
    }
    struct Rect: Decodable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }
    var name: String
    var make: String?
    var model: String?
    var serial: String?
    var active: Bool?
    var current_mode: Mode?
    var transform: String?
    var scale: Double?
    var rect: Rect?

    var output: RigOutput {
        RigOutput(
            name: name, make: make ?? "", model: model ?? "", serial: serial ?? "",
            active: active ?? false, width: current_mode?.width ?? 0, height: current_mode?.height ?? 0,
            refreshMilliHz: current_mode?.refresh ?? 0, transform: transform ?? "normal",
            scale: scale ?? 1,
            rect: PixelRect(
                x: rect?.x ?? 0, y: rect?.y ?? 0, width: rect?.width ?? 0,
                height: rect?.height ?? 0))
    }
}
