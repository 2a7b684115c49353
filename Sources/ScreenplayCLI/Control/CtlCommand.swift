import Foundation
import Signage

/// `screenplay ctl COMMAND`: controls a running `play` through its local
/// control socket.
public struct CtlCommand: CLICommand {
    public var invocation: Invocation { .ctl(self) }

    /// status, next, previous, pause, resume, reload, show, screenshot or override.
    public var request: String
    /// `show`'s item: a position (1 is the first) or a file name.
    public var item: String?
    /// `screenshot`'s PNG file to write.
    public var file: String?
    /// `--output`: only panels matching this pattern.
    public var output: String?
    /// `--socket`: where `play` listens.
    public var socketPath: String?
    /// `--json`: the reply as JSON.
    public var json = false
    /// `override`'s request: what, for how long, or `--clear`.
    var override: OverrideRequest?

    /// Creates the command.
    public init(request: String) { self.request = request }

    public static let commandName = "ctl"
    public static let abstract =
        "Control a running 'play': status, next, previous, pause, resume, reload, show, screenshot, override."
    public static let options: [OptionSpec] = [
        .value("output"), .value("socket"), .flag("json"), .value("for"), .value("text"), .flag("clear"),
    ]
    public static let usage = """
        OVERVIEW: \(abstract)
        Talks to 'screenplay play' through its control socket (a Unix socket
        only this user can open; nothing listens on a network).

        USAGE: screenplay ctl [options] <command> [item]

        COMMANDS:
          status                  Each panel: playlist, item, seconds left,
                                  paused, stalled; with a schedule, the entry
                                  playing and the next change; with a layout,
                                  each region's item and seconds left.
          next, previous          Switch to the next or previous item now; the
                                  playlist goes on from it.
          pause, resume           Hold the item on screen; go on from it.
          reload                  Re-read the playlist (as SIGHUP does); with a
                                  playlist URL, ask the server now.
          show ITEM               Switch to ITEM now: its position (1 is the
                                  first) or its file name (menu.pdf#page=2).
          screenshot FILE.png     Write what one panel shows now (the one
                                  --output names, or the only one) as a PNG
                                  at the panel's pixel size, as a viewer sees
                                  it; playback goes on undisturbed.
          override WHAT           Show WHAT instead of the schedule, from the
                                  next refresh (a cut): a playlist name of
                                  the running file, or a media file (a path
                                  with '/', or a file in this folder).
          override --text MESSAGE A full-screen message: large white letters
                                  on red; \\n in MESSAGE starts a new line.
          override --clear        Back to what the schedule says now.

        OPTIONS:
          --output PATTERN        Only the panels matching PATTERN (as play's
                                  --output; default: every panel).
          --socket PATH           The socket play listens on (default
                                  $XDG_RUNTIME_DIR/screenplay/play.sock).
          --json                  Print the reply as JSON.
          --for DURATION          override: end by itself after DURATION
                                  (90s, 20m, 1h, 1h30m); without it, it
                                  stays until --clear. Either way it is kept
                                  in the state folder and survives a restart.
          -h, --help              Show this help.

        EXAMPLES:
          screenplay ctl status --json
          screenplay ctl next --output HDMI-A-1
          screenplay ctl show 3
          screenplay ctl screenshot --output HDMI-A-1 lobby.png
          screenplay ctl override --text "FIRE DRILL - leave by the stairs" --for 20m
          screenplay ctl override /srv/signage/closed.png --output HDMI-A-1
          screenplay ctl override --clear
        """

    public init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard let first = arguments.positionals.first else {
            throw Self.usageError(
                "missing command: expected one of \(ControlRequest.Command.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        guard let command = ControlRequest.Command(rawValue: first) else {
            throw Self.usageError(
                "unknown command '\(first)': expected one of \(ControlRequest.Command.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        request = first
        let rest = arguments.positionals.dropFirst()
        if command == .show {
            guard let item = rest.first else {
                throw Self.usageError("show needs an item: its position (1 is the first) or its file name")
            }
            self.item = item
            if rest.count > 1 { throw Self.usageError("unexpected argument '\(rest[rest.startIndex + 1])'") }
        } else if command == .screenshot {
            guard let file = rest.first else {
                throw Self.usageError("screenshot needs the PNG file to write, such as lobby.png")
            }
            self.file = file
            if rest.count > 1 { throw Self.usageError("unexpected argument '\(rest[rest.startIndex + 1])'") }
        } else if command == .override {
            override = try OverrideRequest.parse(rest, arguments)
        } else if let extra = rest.first {
            throw Self.usageError("unexpected argument '\(extra)'")
        }
        if command != .override,
            let option = ["for", "text", "clear"].first(where: { arguments.values[$0] != nil || arguments.flag($0) })
        {
            throw Self.usageError("--\(option) belongs to override only")
        }
        output = arguments.last("output")
        socketPath = arguments.last("socket")
        json = arguments.flag("json")
    }
}

/// The client side of the control socket.
enum CtlRunner {
    /// Sends one request and prints the reply. Exit 0 on `ok`, 65 when play
    /// refused the request, 69 when no play answers.
    static func run(_ command: CtlCommand) throws -> Int32 {
        guard let path = command.socketPath ?? ControlSocketPath.default else {
            throw CommandFailure(.usage, "XDG_RUNTIME_DIR is not set: give --socket PATH (the path play was given)")
        }
        guard let name = ControlRequest.Command(rawValue: command.request) else {
            throw CommandFailure(.usage, "unknown command '\(command.request)'")
        }
        var request = ControlRequest(command: name, output: command.output, item: command.item)
        request.override = command.override
        // A screenshot waits for the panel's next frame (2 s at most) and
        // brings a whole PNG back.
        let reply = try exchange(request.line, path: path, seconds: name == .screenshot ? 10 : 5)
        guard let fields = (try? JSONSerialization.jsonObject(with: reply)) as? [String: Any] else {
            throw CommandFailure(
                .unavailable, "\(path) answered something that is not a JSON reply; is it a screenplay play socket?")
        }
        guard fields["ok"] as? Bool == true else {
            let reason = fields["error"] as? String ?? "no reason given"
            let refused = reason.hasPrefix("refused") || reason.hasPrefix("busy")
            throw CommandFailure(refused ? .unavailable : .dataError, "play refused '\(command.request)': \(reason)")
        }
        if name == .screenshot { return try writeScreenshot(fields, to: command.file ?? "", json: command.json) }
        if command.json {
            let data = try JSONSerialization.data(
                withJSONObject: fields, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return 0
        }
        if let message = fields["message"] as? String { print(message) }
        if let path = fields["path"] as? String {
            print(
                "\(path) (pid \(fields["pid"] ?? "?"))\(fields["connected"] as? Bool == false ? ": waiting for the compositor" : "")"
            )
        }
        let panels = fields["panels"] as? [[String: Any]] ?? []
        if name == .status, let reason = fields["nothing_shown"] as? String {
            print("nothing is shown: \(reason)")
        } else if panels.isEmpty, name == .status {
            print("no panel connected")
        }
        for panel in panels { print(line(for: panel)) }
        return 0
    }

    /// "HDMI-A-1: lobby 2/5 menu.pdf#page=2, 8.3 s left"
    static func line(for panel: [String: Any]) -> String {
        var text = "\(panel["output"] as? String ?? "?"): \(panel["playlist"] as? String ?? "?")"
        if let index = panel["index"] as? Int { text += " \(index)/\(panel["items"] as? Int ?? 0)" }
        if let item = panel["item"] as? String { text += " \(item)" }
        if panel["paused"] as? Bool == true {
            text += ", paused"
        } else if let left = panel["seconds_left"] as? Double {
            text += String(format: ", %.1f s left", left)
        }
        if let stalled = panel["stalled_seconds"] as? Double { text += String(format: ", stalled for %.0f s", stalled) }
        if let schedule = panel["schedule"] as? [String: Any] { text += "; " + scheduleLine(schedule) }
        if let override = panel["override"] as? [String: Any] { text += OverrideRequest.statusLine(override) }
        // A layout: one line per region, as a panel's ("  region main: dishes 2/2 menu.png, 3.1 s left").
        for region in panel["regions"] as? [[String: Any]] ?? [] {
            text += "\n  " + line(for: region.merging(["output": "region \(region["name"] as? String ?? "?")"]) { $1 })
        }
        return text
    }

    /// "schedule panels[0].schedule[1] (night) until 2026-03-29T03:00:00+02:00, then panels[0].playlist (day)"
    static func scheduleLine(_ schedule: [String: Any]) -> String {
        var text = "schedule \(schedule["entry"] as? String ?? "?") (\(schedule["playlist"] as? String ?? "?"))"
        guard let at = schedule["next_change"] as? String else { return text + ", no change ahead" }
        text +=
            " until \(at), then \(schedule["next_entry"] as? String ?? "?") (\(schedule["next_playlist"] as? String ?? "?"))"
        return text
    }

    /// Writes the PNG a screenshot reply carries to `file` (through a
    /// temporary file, so a half-written picture never stands there).
    static func writeScreenshot(_ fields: [String: Any], to file: String, json: Bool) throws -> Int32 {
        guard let encoded = fields["png"] as? String, let png = Data(base64Encoded: encoded) else {
            throw CommandFailure(.unavailable, "play's screenshot reply carries no PNG; is play the same version?")
        }
        let url = URL(fileURLWithPath: file)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        do {
            try png.write(to: temporary)
            _ = try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: temporary, to: url)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure(
                .cannotCreate,
                "cannot write \(file): \((error as NSError).localizedDescription); check the folder exists and is writable"
            )
        }
        var summary = fields
        summary["png"] = nil
        summary["file"] = file
        summary["bytes"] = png.count
        if json {
            let data = try JSONSerialization.data(
                withJSONObject: summary, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(
                "wrote \(file): \(fields["output"] as? String ?? "?"), \(fields["width"] ?? "?")x\(fields["height"] ?? "?")"
            )
        }
        return 0
    }

    /// Connects, sends `line`, and reads one reply line (`seconds` at most each).
    static func exchange(_ line: Data, path: String, seconds: Int = 5) throws -> Data {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw CommandFailure(.unavailable, "cannot make a socket: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard ControlSocketFile.withAddress(path, { connect(fd, $0, $1) }) == 0 else {
            throw CommandFailure(
                .unavailable,
                "no screenplay play answers on \(path) (\(String(cString: strerror(errno)))); is it running? (give --socket the path play uses)"
            )
        }
        let sent = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // A refused connection (another uid, too many clients) is answered
        // and closed at once: the send may fail, the reason is still there to read.
        let sendError = sent == line.count ? nil : String(cString: strerror(errno))
        var reply = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(0x0A) {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                reply.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 || sendError != nil { break }
            throw CommandFailure(
                .unavailable, "no reply from \(path) within \(seconds) s (\(String(cString: strerror(errno))))")
        }
        guard let end = reply.firstIndex(of: 0x0A) else {
            throw CommandFailure(
                .unavailable,
                sendError.map { "cannot send to \(path): \($0)" } ?? "\(path) closed the connection without a reply")
        }
        return reply[..<end]
    }
}
