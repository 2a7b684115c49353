// swift-tools-version:6.0
import PackageDescription

// Layering (each module imports only those below it; C types never leave the
// module that wraps them):
//   screenplay (main.swift) -> ScreenplayCLI -> Screenplay -> Video, Web, Rendering, WaylandClient, FrameTiming
//                              ScreenplayCLI -> Documents -> CPoppler, CCairo, Geometry (the one aspect-fit; Rendering uses it too)
//                              ScreenplayCLI -> Presenter -> Screenplay, Documents (a talk on an app's Application)
//                              ScreenplayCLI -> Signage -> Screenplay, Documents (the signage player of `play`)
//                                               Signage -> CSystemd (every sd-daemon call stays in ServiceNotifier.swift)
//                              ScreenplayCLI -> Fleet -> Signage (`play URL`'s cache, `play --mqtt`)
//                                               Fleet -> CCurl (libcurl and SHA-256: only HTTPFetcher.swift and FileDigest.swift)
//                                               Fleet -> CMosquitto (libmosquitto: only MQTTConnection.swift and MQTTConnectionGlue.swift)
//   WaylandClient -> CWaylandProtocols, CWayland, CXkb;  Rendering -> CEGL, CCairo, CPixbuf, CRsvg, CWayland
//   (CCairo, CPixbuf, CRsvg find pango/gdk-pixbuf/librsvg headers through CSystemHeaders)
//   Video -> CMpv, Rendering, FrameTiming (every mpv C type stays inside Video)
//   Web -> CWPE (-> CGLib), CEGL, Rendering, EventLoop (every WebKit and GLib type stays inside CWPE's cwpe.c)
//   WaylandClient, Video, Screenplay -> EventLoop -> CLinuxEvents (epoll, timerfd, eventfd)
//   ScreenplayGLES: a library product of GLES 2/3 and EGL headers for apps' own GL
//   Examples/SDLGame (screenplay-sdl-game) -> Screenplay, ScreenplayGLES, CSDL2
//   ScreenplayC (libscreenplay.so.0, the C interface) -> Screenplay, Rendering, CScreenplay (its header)
// Tests: unit targets (<Module>Tests) start no compositor; the integration
// targets (ScreenplayIntegrationTests, ScreenplayCLIIntegrationTests) and
// RigTests start headless compositors through TestSupport (Tests/Support).
// ScreenplayBench -> TestSupport, Documents, Rendering drives the built `screenplay` binary.
// ARCHITECTURE.md lists every edge; ArchitectureDocTests compares them with the targets below.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Screenplay",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Screenplay", targets: ["Screenplay"]),
        // The GLES 2/3 and EGL headers for an app's own GL (DrawingContext.withGL).
        .library(name: "ScreenplayGLES", targets: ["ScreenplayGLES"]),
        // PDF pages as pixels (poppler) and the sample deck: the CLI's slides, for any app.
        .library(name: "Documents", targets: ["Documents"]),
        // A talk (PDF, notes, pdfpc files) with its console and audience
        // scenes, on an app's own Application: `screenplay present FILE.pdf`.
        .library(name: "Presenter", targets: ["Presenter"]),
        // Signage: the signage player of `screenplay play` (SignagePlayer) on
        // an app's own Application, with the playlist file's model and parser.
        .library(name: "Signage", targets: ["Signage"]),
        // Fleet: a box's playlist from a web server (a cache that survives
        // power cuts), and its status, proof of play and commands over MQTT.
        .library(name: "Fleet", targets: ["Fleet"]),
        // libscreenplay.so.0 for C, C++, Rust and Python (the C interface of
        // Sources/CScreenplay/include/screenplay/screenplay.h); built as
        // libScreenplayC.so (a product name must differ from the tool's),
        // installed as libscreenplay.so.0 by scripts/install.sh.
        .library(name: "ScreenplayC", type: .dynamic, targets: ["ScreenplayC"]),
        .executable(name: "screenplay", targets: ["screenplay"]),
        .executable(name: "screenplay-bench", targets: ["ScreenplayBench"]),
        .executable(name: "screenplay-scoreboard", targets: ["screenplay-scoreboard"]),
        .executable(name: "screenplay-lobby", targets: ["screenplay-lobby"]),
        .executable(name: "screenplay-sdl-game", targets: ["screenplay-sdl-game"]),
    ],
    targets: [
        // The C library: the public header (CScreenplay) and its @_cdecl
        // definitions (ScreenplayC). Its own soname and a version script that
        // exports screenplay_* only; unsafe flags are fine, no package depends
        // on this product (ConsumerPackageTests checks the Screenplay product).
        .target(name: "CScreenplay"),
        .target(
            name: "ScreenplayC", dependencies: ["Screenplay", "Rendering", "CScreenplay"], exclude: ["screenplay.map"],
            swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "-soname=libscreenplay.so.0",
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/ScreenplayC/screenplay.map",
                ]),
                // SwiftPM's --static-swift-stdlib links executables only: a
                // release libscreenplay carries the Swift runtime and Foundation
                // itself, so C programs run where no Swift toolchain is.
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
            ]),
        // System libraries. pkg-config only where the .pc file chain is clean:
        // pangocairo's, gdk-pixbuf's and librsvg's reach gio-2.0 and so
        // gmodule-no-export-2.0, whose -pthread SwiftPM rejects with a warning in
        // every build of every package that depends on Screenplay. Those three
        // name their libraries with `link` in their module maps and get
        // glib's and cairo's header directories from cairo.pc / glib-2.0.pc (clean),
        // and pango's, gdk-pixbuf's, librsvg's and harfbuzz's from CSystemHeaders,
        // a C target whose include directory links them (see its anchor.c).
        .systemLibrary(
            name: "CWayland", pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]),
        .systemLibrary(
            name: "CEGL", pkgConfig: "egl",
            providers: [.apt(["libegl-dev", "libgles-dev"])]),
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(
            name: "CPixbuf", pkgConfig: "glib-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        .systemLibrary(
            name: "CRsvg", pkgConfig: "cairo",
            providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(
            name: "CXkb", pkgConfig: "xkbcommon",
            providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(
            name: "CPoppler", pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]),
        // libmpv's headers live in /usr/include/mpv, so no pkg-config: `pkg-config
        // --cflags mpv` carries -pthread and -D_REENTRANT (from SDL and
        // pipewire), which SwiftPM rejects with a warning on every build.
        // A C target, not a system library: mpv_loader.c opens libmpv.so.2 when
        // video first plays, so nothing else pays for FFmpeg's libraries.
        .target(name: "CMpv"),
        // SDL2 for the SDL example, without pkg-config for the same reason:
        // `pkg-config --cflags sdl2` carries -D_REENTRANT.
        .systemLibrary(name: "CSDL2", path: "Examples/CSDL2", providers: [.apt(["libsdl2-dev"])]),
        // An app's `import ScreenplayGLES`: a C target (its include directory
        // is the module), linking GLESv2 and EGL.
        .target(name: "ScreenplayGLES"),
        // sd_notify for a player under systemd (Type=notify, watchdog): Signage's ServiceMonitor.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        // libcurl for playlists from a URL (`play https://...`), and libcrypto's
        // SHA-256 for the files they name. No pkg-config: the module map links both.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev", "libssl-dev"])]),
        // libmosquitto for a box's status, proof of play and commands over MQTT (`play --mqtt`).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "CSystemHeaders"),
        // WPE WebKit for web pages (`Web`). wpe-webkit-1.1.pc carries -pthread
        // and wpe-1.0.pc -DWPE_ENABLE_XKB, which SwiftPM rejects with a warning,
        // so CWPE is a C target: its include directory links the WPE, JSC and
        // libsoup header trees, glib's comes from CGLib (glib-2.0.pc, clean),
        // and cwpe.c keeps every GLib and WebKit type behind cwpe.h.
        .systemLibrary(
            name: "CGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        .target(
            name: "CWPE", dependencies: ["CGLib"],
            linkerSettings: [
                .linkedLibrary("WPEWebKit-1.1"), .linkedLibrary("WPEBackend-fdo-1.0"), .linkedLibrary("wpe-1.0"),
                .linkedLibrary("wayland-server"),
            ]),
        // wayland-scanner output, committed; regenerate with scripts/generate-protocols.sh.
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"]),

        .target(name: "FrameTiming", swiftSettings: strict),
        // The one aspect-fit, for Rendering's pictures and Documents' pages.
        .target(name: "Geometry", swiftSettings: strict),
        // The main thread's one event loop (epoll, timerfd, eventfd): driven by
        // the main queue or by an app's own loop (Application.processEvents).
        .target(name: "EventLoop", dependencies: ["CLinuxEvents"], swiftSettings: strict),
        .systemLibrary(name: "CLinuxEvents"),
        .target(
            name: "WaylandClient",
            dependencies: ["CWayland", "CWaylandProtocols", "CXkb", "EventLoop"],
            swiftSettings: strict),
        .target(
            name: "Rendering",
            dependencies: ["CEGL", "CCairo", "CPixbuf", "CRsvg", "CSystemHeaders", "CWayland", "Geometry"],
            swiftSettings: strict),
        // Video through libmpv's render API on Rendering's GL context.
        .target(
            name: "Video", dependencies: ["CMpv", "CEGL", "Rendering", "FrameTiming", "EventLoop"],
            swiftSettings: strict),
        // Web pages through WPE WebKit, their frames on Rendering's GL context,
        // WebKit's GLib context pumped from EventLoop.
        .target(
            name: "Web", dependencies: ["CWPE", "CEGL", "Rendering", "EventLoop"],
            swiftSettings: strict),
        .target(
            name: "Screenplay",
            dependencies: ["WaylandClient", "Rendering", "FrameTiming", "Video", "Web", "EventLoop"],
            swiftSettings: strict),
        // PDF documents (poppler) and the sample deck (cairo's PDF surface).
        .target(
            name: "Documents", dependencies: ["CPoppler", "CCairo", "CSystemHeaders", "Geometry"],
            swiftSettings: strict),
        // A talk on an app's Application: the console, the audience view, keys,
        // timer, drawing and notes. It reports through closures (messages,
        // events) and leaves stats files, watchdogs and systemd to the app.
        .target(name: "Presenter", dependencies: ["Screenplay", "Documents"], swiftSettings: strict),
        // Signage: the signage player (panels, layouts, overrides, reloads,
        // control requests) and the playlist file's model and parser (errors
        // with JSON paths). It writes no stderr of its own and no file but its
        // state; the tool's services reach it through options and hooks. Its
        // Service/ parts serve any player run as a service: systemd's notify
        // protocol (CSystemd) and JSON Lines files.
        .target(name: "Signage", dependencies: ["Screenplay", "Documents", "CSystemd"], swiftSettings: strict),
        // Fleet: `play URL`'s downloads (libcurl, SHA-256) into a cache and
        // `play --mqtt`'s broker (libmosquitto), on Signage's playlist model.
        // Its messages go to the SignageMessages it is given; the state
        // files and the exit statuses are the app's.
        .target(name: "Fleet", dependencies: ["Signage", "CCurl", "CMosquitto"], swiftSettings: strict),
        // BuildCommit writes the git commit into ScreenplayCLI for `--version`.
        .target(
            name: "ScreenplayCLI",
            dependencies: ["Screenplay", "Documents", "Presenter", "Signage", "Fleet"],
            swiftSettings: strict,
            plugins: ["BuildCommit"]),
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .executableTarget(name: "screenplay", dependencies: ["ScreenplayCLI"], swiftSettings: strict),
        // The example app the README walks through: a keypad window, a scoreboard on the TV.
        .executableTarget(
            name: "screenplay-scoreboard", dependencies: ["Screenplay"], path: "Examples/Scoreboard",
            swiftSettings: strict),
        // A café's counter window with three buttons while the TV plays a
        // playlist through the Signage library's player.
        .executableTarget(
            name: "screenplay-lobby", dependencies: ["Screenplay", "Signage"], path: "Examples/Lobby",
            exclude: ["cafe.json"], swiftSettings: strict),
        // A game with its own SDL window and loop on the laptop; Screenplay,
        // driven from SDL's loop, draws the same state with raw GLES on every
        // external screen (Application.processEvents, DrawingContext.withGL).
        .executableTarget(
            name: "screenplay-sdl-game", dependencies: ["Screenplay", "ScreenplayGLES", "CSDL2"],
            path: "Examples/SDLGame", swiftSettings: strict),
        // Benchmarks against headless compositors (`scripts/bench.sh`); drives the
        // `screenplay` binary through the test rig, so it links no Screenplay module
        // (Documents only writes the sample deck the soak presents).
        .executableTarget(
            name: "ScreenplayBench", dependencies: ["TestSupport", "Documents", "Rendering"], swiftSettings: strict),

        // Test support: headless compositors, output hot-plug, pixel capture.
        .target(name: "TestSupport", path: "Tests/Support", swiftSettings: strict),
        // The base test case: every failure on one line with the program's stderr tail.
        .target(name: "TestHarness", dependencies: ["TestSupport"], path: "Tests/Harness", swiftSettings: strict),
        // A scripted compositor on libwayland-server for protocol edge cases
        // (Tests/ScriptedCompositor; scripts/generate-test-protocols.sh). Tests only.
        .systemLibrary(
            name: "CWaylandServer", path: "Tests/CWaylandServer", pkgConfig: "wayland-server",
            providers: [.apt(["libwayland-dev"])]),
        .target(
            name: "ScriptedCompositor", dependencies: ["CWaylandServer"], path: "Tests/ScriptedCompositor",
            exclude: ["protocols"]),
        // A client that moves and clicks through zwlr_virtual_pointer_v1 (no tool in
        // Debian 12 drives it); client code from scripts/generate-test-protocols.sh. Tests only.
        .target(name: "VirtualPointer", dependencies: ["CWayland"], path: "Tests/VirtualPointer"),

        // Unit tests: no compositor, seconds in all (`scripts/test.sh --unit`).
        // The scripted compositor counts: it runs in-process on libwayland-server.
        .testTarget(name: "FrameTimingTests", dependencies: ["TestHarness", "FrameTiming"], swiftSettings: strict),
        .testTarget(name: "EventLoopTests", dependencies: ["TestHarness", "EventLoop"], swiftSettings: strict),
        // WebKit's GLib context in the main event loop, with a GLib source of its own (CGLib).
        .testTarget(
            name: "WebTests", dependencies: ["TestHarness", "Web", "EventLoop", "CGLib"], swiftSettings: strict),
        .testTarget(
            name: "DocumentsTests", dependencies: ["TestHarness", "Documents", "TestSupport"], swiftSettings: strict),
        // TestSupport for TestImages (fixtures made with ffmpeg); no compositor.
        .testTarget(
            name: "RenderingTests", dependencies: ["TestHarness", "Rendering", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "WaylandClientTests", dependencies: ["TestHarness", "WaylandClient"],
            swiftSettings: strict),
        .testTarget(
            name: "ScreenplayTests",
            dependencies: [
                "TestHarness", "Screenplay", "ScreenplayCLI", "Signage", "ScriptedCompositor", "TestSupport",
                "EventLoop",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ScreenplayCLITests",
            dependencies: ["TestHarness", "ScreenplayCLI", "Presenter", "Signage", "Fleet", "Screenplay"],
            swiftSettings: strict),
        // The fleet client's parts that need no server or broker: the remote
        // playlist, the cache's budget, the proof outbox's journal, MQTT's checks.
        .testTarget(name: "FleetTests", dependencies: ["TestHarness", "Fleet", "Signage"], swiftSettings: strict),
        // The playlist file's parser, schedules and clock alignment; python3's
        // jsonschema checks docs/playlist.schema.json against the parser.
        .testTarget(
            name: "SignageTests", dependencies: ["TestHarness", "Signage", "Screenplay"], swiftSettings: strict),
        .testTarget(
            name: "PresenterTests", dependencies: ["TestHarness", "Presenter", "Screenplay", "Documents"],
            swiftSettings: strict),
        // Integration tests: each starts headless compositors through the rig
        // (minutes; the full `scripts/test.sh` runs them with the unit tests).
        .testTarget(
            name: "ScreenplayIntegrationTests",
            dependencies: ["TestHarness", "Screenplay", "ScreenplayGLES", "Presenter", "Documents", "TestSupport"],
            swiftSettings: strict),
        // CPoppler (with cairo-pdf.h): tests write PDF fixtures (links to videos) with cairo's tags.
        .testTarget(
            name: "ScreenplayCLIIntegrationTests",
            dependencies: ["TestHarness", "Documents", "TestSupport", "VirtualPointer", "CPoppler"],
            swiftSettings: strict),
        // The package as users meet it: a dependent package builds the README's example
        // without warnings, the public interface shows no WaylandClient or C type, the
        // documentation builds with every public symbol documented, the code passes
        // swift-format's lint. No compositor; minutes (each builds in a scratch directory).
        .testTarget(name: "PackageTests", dependencies: ["TestHarness", "TestSupport"], swiftSettings: strict),
        // The rig's own tests: the compositors start, hot-plug and capture as promised.
        .testTarget(name: "RigTests", dependencies: ["TestHarness", "TestSupport"], swiftSettings: strict),
    ]
)
