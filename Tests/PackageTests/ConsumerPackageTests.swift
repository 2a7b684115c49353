import Foundation
import TestHarness
import TestSupport
import XCTest

/// Packages that depend on Screenplay as a user's would: the README's library
/// example (beside a scene that draws with its own GLES calls through the
/// `ScreenplayGLES` product and a loop of its own), the lobby example, and
/// the `screenplay` tool's own sources, build without a single warning or
/// error. All live in one scratch package made once per `swift test` run
/// (`RunShared`), so Screenplay is built cold once for the three: the first
/// build compiles it, and the others (SwiftPM's lock on `.build` makes them
/// wait for it) compile their own targets.
final class ConsumerPackageTests: ScreenplayTestCase {
    /// An app's own GL and loop, as the DocC article shows them.
    static let ownGL = """
        import Glibc
        import Screenplay
        import ScreenplayGLES

        @MainActor final class Arena: SceneDelegate {
            func scene(_ scene: Scene, willConnectTo session: SceneSession) {}
            func draw(_ scene: Scene, in context: DrawingContext) throws {
                try context.withGL { drawable in
                    glViewport(0, 0, GLsizei(drawable.pixelWidth), GLsizei(drawable.pixelHeight))
                    glClearColor(0.13, 0.16, 0.27, 1)
                    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
                }
            }
        }

        @MainActor func playOneTick(_ app: Application) {
            var descriptor = pollfd(fd: EventPump.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, EventPump.timeoutMilliseconds(atMost: 16))
            EventPump.processEvents()
        }

        """

    func testReadmeLibraryExampleBuildsWarningFreeInADependentPackage() throws {
        let directory = try Self.consumerPackage()
        let log = try Self.build(product: "ReadmeExample", in: directory, what: "the README's library example")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: directory + "/.build/debug/ReadmeExample"),
            "no ReadmeExample binary after the build:\n\(log)")
    }

    /// The CLI is an app like any other: its sources build in a package that
    /// reaches Screenplay through its `Screenplay` product, where no
    /// `package` symbol is visible, so everything the tool does any app can
    /// do with the public API. PDFs come from the `Documents` product, the
    /// fleet client (with libcurl and libmosquitto inside it) from `Fleet`,
    /// systemd's notify protocol (with libsystemd inside it) from `Signage`.
    func testCLISourcesBuildAgainstThePublicAPIAlone() throws {
        let directory = try Self.consumerPackage()
        let log = try Self.build(product: "tool", in: directory, what: "the screenplay tool's sources")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: directory + "/.build/debug/tool"),
            "no tool binary after the build:\n\(log)")
    }

    /// The lobby example, an app that plays a playlist through the Signage
    /// library while its own window takes the counter's buttons, builds from
    /// the `Screenplay` and `Signage` products alone.
    func testTheLobbyExampleBuildsFromTheProductsAlone() throws {
        let directory = try Self.consumerPackage()
        let log = try Self.build(product: "Lobby", in: directory, what: "the lobby example")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: directory + "/.build/debug/Lobby"),
            "no Lobby binary after the build:\n\(log)")
    }

    /// Builds `product` in the consumer package and checks the log: exit 0,
    /// no warning, no error. Names the `package` symbols used, when that is
    /// why it failed.
    static func build(product: String, in directory: String, what: String) throws -> String {
        // The first build is a cold build of Screenplay and everything under
        // it. One build at a time: a test of another process waits here, so
        // SwiftPM's own "waiting" note never lands in the log checked below.
        let build = try RunShared.exclusively(directory + "/build.lock") {
            try runProcess("swift", ["build", "--product", product], timeout: 1800, directory: directory)
        }
        let log = build.stdout + build.stderr
        XCTAssertFalse(build.timedOut, "swift build of \(what) in a dependent package timed out:\n\(log)")
        let findings = PackageCheckout.findings(in: log)
        let protected = findings.filter { $0.contains("'package' protection level") }
        XCTAssertEqual(
            protected, [],
            "\(what) use `package` symbols of Screenplay, which an outside package cannot see; make what they need public API"
        )
        XCTAssertEqual(build.status, 0, "\(what) do not build in a package that depends on Screenplay:\n\(log)")
        XCTAssertEqual(findings, [], "building \(what) in a dependent package printed warnings or errors:\n\(log)")
        return log
    }

    /// The scratch package, made once a run: the README example as one
    /// executable, the lobby example as another, the CLI's sources as a third.
    static func consumerPackage() throws -> String {
        try RunShared.directory("consumer") { try makeConsumerPackage(in: $0) }
    }

    private static func makeConsumerPackage(in consumer: String) throws {
        let root = PackageCheckout.root
        let example = try PackageCheckout.firstSwiftBlock(
            inSection: "An app or a game", of: try PackageCheckout.readme())
        // SwiftPM names a path dependency after its directory's last component.
        let identity = URL(fileURLWithPath: root).lastPathComponent
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let strict: [SwiftSetting] = [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]

            let package = Package(
                name: "Consumer",
                dependencies: [.package(path: "\(root)")],
                targets: [
                    .executableTarget(
                        name: "ReadmeExample",
                        dependencies: [
                            .product(name: "Screenplay", package: "\(identity)"),
                            .product(name: "ScreenplayGLES", package: "\(identity)"),
                        ]),
                    .executableTarget(
                        name: "Lobby",
                        dependencies: [
                            .product(name: "Screenplay", package: "\(identity)"),
                            .product(name: "Signage", package: "\(identity)"),
                        ],
                        swiftSettings: strict),
                    .target(
                        name: "ToolCLI",
                        dependencies: [
                            .product(name: "Screenplay", package: "\(identity)"),
                            .product(name: "Documents", package: "\(identity)"),
                            .product(name: "Presenter", package: "\(identity)"),
                            .product(name: "Signage", package: "\(identity)"),
                            .product(name: "Fleet", package: "\(identity)"),
                        ],
                        swiftSettings: strict),
                    .executableTarget(name: "tool", dependencies: ["ToolCLI"], swiftSettings: strict),
                ]
            )

            """
        do {
            let files = FileManager.default
            try files.createDirectory(atPath: consumer + "/Sources/ReadmeExample", withIntermediateDirectories: true)
            try manifest.write(toFile: consumer + "/Package.swift", atomically: true, encoding: .utf8)
            try example.write(toFile: consumer + "/Sources/ReadmeExample/main.swift", atomically: true, encoding: .utf8)
            try ownGL.write(toFile: consumer + "/Sources/ReadmeExample/OwnGL.swift", atomically: true, encoding: .utf8)
            try files.createDirectory(atPath: consumer + "/Sources/Lobby", withIntermediateDirectories: true)
            try files.copyItem(
                atPath: root + "/Examples/Lobby/main.swift", toPath: consumer + "/Sources/Lobby/main.swift")
            // SwiftPM wants target names unique across the package graph, and
            // Screenplay's package has these two: the copies get other names,
            // and the one change to their files is the module names they import.
            let renamed = ["ScreenplayCLI": "ToolCLI", "screenplay": "tool"]
            for (module, copy) in renamed {
                try files.copyItem(atPath: root + "/Sources/" + module, toPath: consumer + "/Sources/" + copy)
                // Sub-folders by concept: every file below the module's folder.
                for file in try files.subpathsOfDirectory(atPath: consumer + "/Sources/" + copy)
                where file.hasSuffix(".swift") {
                    let path = consumer + "/Sources/" + copy + "/" + file
                    var text = try String(contentsOfFile: path, encoding: .utf8)
                    text = text.replacingOccurrences(of: "import ScreenplayCLI", with: "import ToolCLI")
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
            }
            // What the BuildCommit plugin writes at build time in the real package.
            try "let buildCommit: String? = nil\nlet buildTreeModified = false\n".write(
                toFile: consumer + "/Sources/ToolCLI/BuildCommit.swift", atomically: true, encoding: .utf8)
        } catch {
            throw CheckoutError("cannot write the consumer package in \(consumer): \(error)")
        }
    }
}
