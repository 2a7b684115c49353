// screenplay-bench: runs Screenplay's benchmarks (frame pacing, hot-plug to first frame,
// CPU per frame, idle cost, memory, scaling) against headless compositors it starts itself,
// and writes bench-results/{results.json,summary.md,*.svg}. Use scripts/bench.sh.
import Foundation
import TestSupport

let usage = """
    USAGE: screenplay-bench [--quick] [--out DIR] [--screenplay PATH] [--only LIST] [--soak-minutes N] [--texture-minutes N]
                            [--web-memory-minutes N] [--minutes N] [--boxes LIST]
                            [--readme PATH|--no-readme]

    Runs every benchmark, each on its own headless sway or weston, and writes
    DIR/results.json, DIR/summary.md and SVG charts (DIR defaults to bench-results).
    Build both products in release mode first (scripts/bench.sh does).

      --quick            Short smoke run (~2 minutes); numbers are not representative.
      --out DIR          Where to write the results.
      --screenplay PATH  The screenplay binary (default: next to this one).
      --only LIST        Comma-separated subset of: pacing, scaling, hotplug, idle, framecost, video, signage, layouts,
                         web, fleet, soak, day, textures, webmemory, mirrors, walls, wallsync, wallboxes. Default: all
                         but soak (half an hour), day (ten minutes), textures and webmemory (an hour each), mirrors,
                         walls, wallsync and wallboxes (ten minutes).
      --soak-minutes N   Length of the memory soak (default 30).
      --texture-minutes N  Length of the texture soak (default 60).
      --web-memory-minutes N  Length of the web page's memory run (default 60).
      --minutes N        Length of each wall-of-boxes run (default 10).
      --boxes LIST       Comma-separated counts of boxes, each 2 to 4, for the wall-of-boxes runs (default 2,4).
      --readme PATH      The page whose bench markers get the headline table after a
                         full run (default docs/performance.md; skipped when missing
                         or --quick).
      --no-readme        Leave that page alone.
    """

var quick = false
var outDirectory = "bench-results"
var screenplayBinary = defaultScreenplayBinary()
let allBenchmarks: Set<String> = [
    "pacing", "scaling", "hotplug", "idle", "framecost", "video", "signage", "layouts", "web", "fleet",
]
var only = allBenchmarks
// The guide that holds the Performance tables (README.md links it).
var readmePath: String? = "docs/performance.md"
var soakMinutes = 30.0
var textureMinutes = 60.0
var webMemoryMinutes = 60.0
var wallBoxMinutes = 10.0
var wallBoxCounts = [2, 4]
var arguments = CommandLine.arguments.dropFirst()
while let word = arguments.popFirst() {
    switch word {
    case "--quick": quick = true
    case "--out": outDirectory = arguments.popFirst() ?? outDirectory
    case "--screenplay": screenplayBinary = arguments.popFirst() ?? screenplayBinary
    case "--only": only = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
    case "--soak-minutes": soakMinutes = Double(arguments.popFirst() ?? "") ?? soakMinutes
    case "--web-memory-minutes": webMemoryMinutes = Double(arguments.popFirst() ?? "") ?? webMemoryMinutes
    case "--texture-minutes": textureMinutes = Double(arguments.popFirst() ?? "") ?? textureMinutes
    case "--minutes": wallBoxMinutes = Double(arguments.popFirst() ?? "") ?? wallBoxMinutes
    case "--boxes":
        let word = arguments.popFirst() ?? ""
        let counts = word.split(separator: ",").map { Int($0) }
        guard !counts.isEmpty, counts.allSatisfy({ $0.map(WallBoxesBench.counts.contains) ?? false }) else {
            FileHandle.standardError.write(
                Data("error: --boxes '\(word)': give counts of boxes from 2 to 4, e.g. --boxes 2,3,4\n".utf8))
            exit(64)
        }
        wallBoxCounts = counts.compactMap { $0 }
    case "--readme": readmePath = arguments.popFirst()
    case "--no-readme": readmePath = nil
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("error: unknown argument '\(word)'\n\n\(usage)\n".utf8))
        exit(64)
    }
}
guard FileManager.default.isExecutableFile(atPath: screenplayBinary) else {
    FileHandle.standardError.write(
        Data("error: no screenplay binary at \(screenplayBinary); build it first (scripts/bench.sh)\n".utf8))
    exit(66)
}

/// First line of a command's output, for the run's metadata.
func firstLine(_ command: String, _ args: [String]) -> String {
    guard let result = try? runProcess(command, args, timeout: 10), result.status == 0 else { return "unknown" }
    let text = (result.stdout + result.stderr).split(separator: "\n").first.map(String.init) ?? "unknown"
    return text.trimmingCharacters(in: .whitespaces)
}

/// The 1-minute load average.
func loadAverage() -> Double {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return Double(text.split(separator: " ").first ?? "") ?? -1
}

let startedAt = now()
let settings = BenchSettings(quick: quick)
let workDirectory = NSTemporaryDirectory() + "/screenplay-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: workDirectory) }

let info = RunInfo(
    date: ISO8601DateFormatter().string(from: Date()), quick: quick,
    cores: ProcessInfo.processInfo.activeProcessorCount,
    kernel: firstLine("uname", ["-r"]), sway: firstLine("sway", ["--version"]),
    weston: firstLine("weston", ["--version"]),
    gitCommit: firstLine("git", ["rev-parse", "--short", "HEAD"]), totalSeconds: 0, loadAverageAtStart: loadAverage(),
    loadAverageAtEnd: 0, settings: settings.asDictionary)
let runner = BenchRunner(settings: settings, screenplay: screenplayBinary, workDirectory: workDirectory, info: info)

runner.run(
    only, soakMinutes: soakMinutes, textureMinutes: textureMinutes, webMemoryMinutes: webMemoryMinutes,
    wallBoxMinutes: wallBoxMinutes, wallBoxCounts: wallBoxCounts)
runner.results.methods = [
    "pacing on sway":
        "sway 1.7's headless backend answers no wp_presentation feedback (neither presented nor discarded; Screenplay stops asking after six unanswered requests and probes now and then), so on sway frames are counted and timed when their wl_surface.frame callback reaches Screenplay (source frame-callbacks): that is the compositor's repaint cadence as the client sees it, not scan-out.",
    "pacing on weston":
        "weston 10 headless delivers wp_presentation feedback but has no layer-shell, so the shader runs in `present --preview` (an xdg_toplevel window, not fullscreen); its counts and intervals are presentation timestamps (source presentation).",
    "peer weston-simple-egl":
        "run fullscreen (-f) with eglSwapInterval 1; it reports its own frame count every 5 s (source self-reported), so it has no interval distribution and no discarded count. The first report (start-up) is skipped.",
    "clear-only scene":
        "`present color` with the display link kept running (hidden SCREENPLAY_BENCH_CONTINUOUS=1): a glClear and a buffer swap per refresh, the library's per-frame overhead without content cost. The text scene adds one line drawn by drawText (hidden SCREENPLAY_BENCH_TEXT).",
    "CPU per frame":
        "user+sys of the client from /proc/PID/stat over the window, divided by the frames it presented on all outputs in that window (the compositor's own CPU is not included).",
    "hot-plug":
        "t0 = just before `create_output` is written to sway's IPC socket (the wl_output global is created while sway handles it, so the reply time bounds its appearance); t1 = end of the first grim capture (1x1 at the new output's centre, ~1 refresh each) that shows the expected colour. Screenplay runs `present color FF8000`, swaybg `-c #FF8000 -m solid_color`, on the same sway build with the same probe.",
    "memory":
        "VmHWM from /proc/PID/status; and RSS, PSS, private (Private_Clean + Private_Dirty), anonymous and shared from /proc/PID/smaps_rollup right after each hot-plugged output's first frame: RSS counts the shared code of libLLVM and Mesa in full, PSS divides it among the processes that map it.",
    "frame cost":
        "one sway output, weston-simple-egl and five Screenplay scenes in turn, in rounds (median round reported); CPU = run time of all threads (/proc/PID/task/*/schedstat) over whole reporting windows divided by the frames presented in them; the plasma's pixel work is the same shader drawn offscreen in the bench's process (llvmpipe, glFinish per frame); perf samples each program after its window (shares by library and symbol; llvmpipe's JIT-compiled shaders show as [JIT]).",
    "memory soak":
        "VmRSS of each Screenplay process and of the compositor process itself (behind runuser), sampled every second while all run at once; slope = least squares over the median of each 30 s after the warm-up (2 min, or a quarter of a shorter run): a playlist's RSS dips by megabytes for part of every cycle (a video's decoder freed), which steadily spaced single samples alias into a slope. On sway the compositor answers no presentation feedback, so this is where unanswered requests would pile up.",
    "video":
        "the same H.264 clip (1280x720, 30 fps, made by ffmpeg) on one 1280x720@60 sway output: `screenplay present CLIP` (libmpv render API on Screenplay's GLES context, video_frames from --stats) against `mpv --fs --loop --vo=gpu --gpu-context=wayland --hwdec=auto-safe --no-audio` (frames: estimated-frame-number minus frame-drop-count over its IPC socket). CPU per video frame = user+sys over the window / new video frames shown; the ratio is Screenplay / mpv, goal ≤ 1. mpv's default video-sync=audio draws each video frame once; Screenplay's display sync keeps repeats without drawing, and where this machine cannot hand mpv a picture at every refresh (a tenth lost over 2 s) it follows the clock as mpv does, dropping late frames instead of slowing the video (its stderr says so).",
    "signage":
        "`screenplay play` of four 0.1 s items (two colours, two 1280x720 images, cuts, clock-aligned) on one sway output; CPU per switch is user+sys over the switches after the 100th divided by their count; boundary to shown is each item's proof-of-play time (frame-callback arrival on sway) less its slot's start on the wall clock; RSS (VmRSS) and open fds after 100 switches and after the last. No peer: no signage player runs on this machine.",
    "a day of signage":
        "`screenplay play` of 1 s items (three colours, two 640x360 images, two PDF pages, a 320x180 H.264 clip cut at 1 s; cuts, clock-aligned) on three panels of a nested sway (WL-2..4; WL-1 counts as built in), for ten minutes: a panel unplugged or plugged (the nested output's window closed in the parent, or create_output) every 20 s, the nested sway killed and restarted on the same socket every 2 min, a reload every 30 s (the file saved, then `ctl reload`, in turn), `ctl status` every 0.3 s. RSS and fds are each the least over one pass of the playlist (a video item holds its file and decoder for its slot), with all three panels plugged and settled, after warm-up (2 min 10 s, past the first restart) and at the end. Proof of play: every second of every plugged panel, except from 1 s before to 6 s after each plug, unplug or restart, must have exactly one line in the --proof file naming the clock's item.",
    "texture soak":
        "`screenplay play` of four 320x180 images, a PDF page and a shader at 0.5 s each on one sway output, one image file rewritten (a new gradient, renamed into place) every 30 s so its reload makes pictures never drawn before; the `graphics` lines of --stats (every 10 s) give the GL objects held: picture textures, shader programs, text blocks. Flat = the second half's maximum is no higher than the maximum of the ten minutes after a one-minute warm-up.",
    "layouts":
        "three cost ratios of layouts, each case and its peer alternating in rounds (median of three; one sway started per case): (a) `play` of a 1920x1080@60 layout, a full-panel 1920x1080 PNG under a 1920x80 ticker region, against the same ticker region alone on a black layout, CPU (every thread, schedstat) per presented frame; (b) a 1280x720 30 fps H.264 clip in a 1280x720 region with a seconds clock and the ticker, against the same clip as a full-screen item, CPU per second (the same video frames per second in both); (c) `present deck.pdf` with its console on the 1280x720 built-in output, clock running, against `--no-clock`, CPU per second over 60 s. Frames and `redrawn_px` from --stats.",
    "mirrors":
        "`play` of one playlist (a 1280x720 30 fps H.264 clip, full screen) on one 1280x720@60 sway output, and on two outputs of one sway (both panels match it), alternating in rounds (median of three; one sway per case): CPU of every thread (schedstat) per second over the window; video_frames from --stats summed over the panels.",
    "walls":
        "a 1920x1080 30 fps H.264 clip (ffmpeg's testsrc2, veryfast) by `play` with --stats: on one 1920x1080@60 sway output (a panel matching it); as a 2x1 wall across two such outputs of one sway (one play, one decode, each tile its half); and two play processes on those two outputs, each the clip on its own panel (two decodes). Alternating rounds (median of three; one sway per case): CPU of every thread of every play process (schedstat) over the window, per clip frame shown on every panel (video_frames from --stats summed over the panels, divided by the panels), so a case that drops more frames is not flattered; CPU per second alongside.",
    "wall sync":
        "a wall of a 30 fps H.264 clip of the canvas's size on 640x360@60 outputs of one headless sway (2x1, 2x2, and 2x1 beside a busy core), `play` with SCREENPLAY_PLAY_PICTURES=1 for a minute: a `picture` line each time a tile shows a picture of the shared video new to it, with when its frame reached the screen (the frame callback on sway). For each picture every tile showed, the spread of those times: under 1.5 refreshes is the same or the next refresh (within one), 1.5 or more two apart or worse. The first and last pictures of the window are left out; a picture some tiles showed and others never did is counted apart.",
    "wall of boxes":
        "for each count of --boxes (2 to 4), that many `play` processes of one wall file (a 30 fps H.264 clip looping every 60 s in an hour-long slot, one tile a box in a row), each given its own 60 Hz output of one headless sway with --output (640x360 each for two boxes, 426x240 for three, 320x180 for four: the clip, 1280 wide and 720/N high, keeps the machine's decoding the same for every count, since every box decodes it whole), SCREENPLAY_PLAY_PICTURES=1: a `picture` line with the video frame number (mpv's playback position when the picture was rendered, times the frame rate, rounded) each time a box shows a picture new to it, and when its frame reached the screen (the frame callback, CLOCK_MONOTONIC, shared by the processes of one machine). At every refresh (1/60 s) of the window, each box shows its last picture's frame; the spread is the smallest arc holding every box's (the clip loops). After the window, the second box is stopped 5 s (SIGSTOP, SIGCONT): recovery is the time from SIGCONT until all boxes are within one frame and stay so for 0.5 s.",
    "web":
        "the same page (a CSS-rotated gradient square, a CSS-slid bar, a requestAnimationFrame counter reporting to the loopback server each second) full screen on one 1920x1080@60 sway output, by `screenplay present URL` and by Debian's cog 0.16.1 (`cog -P wl`, COG_PLATFORM_WL_VIEW_FULLSCREEN=1), in alternating rounds (median of three): CPU of every thread of the started process and every process below it (WebKit's web and network processes) over the window, divided by the page's own frame count; PSS and RSS summed over that tree at the end.",
    "fleet":
        "four `screenplay play URL --poll 1` (each its own cache, --box-id and 640x360@60 output of one headless sway) against Debian's nginx-light on 127.0.0.1 (one worker); a playlist of three 480x270 noise PNGs and a shader (sha256 and bytes given) is published, media first and the playlist last, with activate_at 12 s ahead. Cached = when each box logs the playlist complete (its stderr read every 20 ms); spread = the largest difference between the boxes' first frames of the new item (presented_ns, frame-callback arrival on sway, one monotonic clock for all); bytes and requests per box from nginx's access log (the User-Agent names the box) between publishing and the last switch, then over a quiet window; nginx CPU from /proc/PID/stat over the whole window. Every box also has --mqtt to one mosquitto on 127.0.0.1: its CPU over the same window, the messages a subscriber to screenplay/# received, and how many boxes answered a status command published to their command topic.",
    "webmemory":
        "`screenplay play` of one web item (a CSS-rotated square, a requestAnimationFrame loop, and 200 list rows rebuilt from data.json fetched every 30 s from nginx-light on 127.0.0.1) full screen on one 1280x720@60 sway output; VmRSS of the play process, and the sum over every process below it (WebKit's web and network processes), once a minute.",
    "idle":
        "CPU and voluntary context switches (all threads) over the window starting right after the first frame was seen by grim.",
    "software rendering":
        "no GPU: Mesa's llvmpipe renders the clients, pixman composites; absolute numbers are far above what a GPU desktop costs, comparisons between programs are the point.",
]
runner.results.run.totalSeconds = now() - startedAt
runner.results.run.loadAverageAtEnd = loadAverage()

let summary = try Report.write(runner.results, to: outDirectory)
print(summary)
if !quick, only == allBenchmarks, let readmePath, FileManager.default.fileExists(atPath: readmePath) {
    let updated = PerformancePage.updateHeadline(readmePath, with: runner.results)
    runner.say(
        updated ? "updated the Performance table in \(readmePath)" : "\(readmePath) has no bench markers; left alone")
}
if !quick, only.contains("soak"), !runner.results.soak.isEmpty, let readmePath,
    FileManager.default.fileExists(atPath: readmePath)
{
    let updated = PerformancePage.updateSoak(readmePath, with: runner.results)
    runner.say(
        updated
            ? "updated the memory soak table in \(readmePath)" : "\(readmePath) has no bench-soak markers; left alone")
}
if !quick, only.contains("layouts"), !runner.results.layoutRatios.isEmpty, let readmePath,
    FileManager.default.fileExists(atPath: readmePath)
{
    let updated = PerformancePage.updateLayouts(readmePath, with: runner.results)
    runner.say(
        updated
            ? "updated the layouts table in \(readmePath)" : "\(readmePath) has no bench-layouts markers; left alone")
}
// The fleet's table lives in the fleet guide beside the Performance page.
if !quick, only.contains("fleet"), runner.results.fleet != nil, let readmePath {
    let fleetPath = (readmePath as NSString).deletingLastPathComponent + "/fleet.md"
    if FileManager.default.fileExists(atPath: fleetPath) {
        let updated = PerformancePage.updateFleet(fleetPath, with: runner.results)
        runner.say(
            updated ? "updated the fleet table in \(fleetPath)" : "\(fleetPath) has no bench-fleet markers; left alone")
    }
}
if !quick, only.contains("web"), !runner.results.webRuns.isEmpty, let readmePath,
    FileManager.default.fileExists(atPath: readmePath)
{
    let updated = PerformancePage.updateWeb(readmePath, with: runner.results)
    runner.say(
        updated ? "updated the web table in \(readmePath)" : "\(readmePath) has no bench-web markers; left alone")
}
if !quick, only.contains("webmemory"), runner.results.webMemory != nil, let readmePath,
    FileManager.default.fileExists(atPath: readmePath)
{
    let updated = PerformancePage.updateWebMemory(readmePath, with: runner.results)
    runner.say(
        updated
            ? "updated the web memory table in \(readmePath)"
            : "\(readmePath) has no bench-webmemory markers; left alone")
}
runner.say("wrote \(outDirectory)/results.json, summary.md and charts in \(Int(now() - startedAt)) s")
exit(runner.results.errors.isEmpty ? 0 : 1)
