import Foundation
import TestHarness
import TestSupport
import XCTest

/// A package that depends on Screenplay, as a user's would, builds the README's library
/// example without a single warning or error, beside a scene that draws with its own
/// GLES calls through the `ScreenplayGLES` product and a loop of its own.
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
            var descriptor = pollfd(fd: app.eventFileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, app.eventTimeoutMilliseconds(atMost: 16))
            app.processEvents()
        }

        """

    func testReadmeLibraryExampleBuildsWarningFreeInADependentPackage() throws {
        let example = try PackageCheckout.firstSwiftBlock(
            inSection: "Library example", of: try PackageCheckout.readme())
        let consumer = try PackageCheckout.scratchDirectory("consumer")
        defer { try? FileManager.default.removeItem(atPath: consumer) }
        // SwiftPM names a path dependency after its directory's last component.
        let identity = URL(fileURLWithPath: PackageCheckout.root).lastPathComponent
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "ReadmeExample",
                dependencies: [.package(path: "\(PackageCheckout.root)")],
                targets: [
                    .executableTarget(
                        name: "ReadmeExample",
                        dependencies: [
                            .product(name: "Screenplay", package: "\(identity)"),
                            .product(name: "ScreenplayGLES", package: "\(identity)"),
                        ])
                ]
            )

            """
        try FileManager.default.createDirectory(
            atPath: consumer + "/Sources/ReadmeExample", withIntermediateDirectories: true)
        try manifest.write(toFile: consumer + "/Package.swift", atomically: true, encoding: .utf8)
        try example.write(toFile: consumer + "/Sources/ReadmeExample/main.swift", atomically: true, encoding: .utf8)
        try Self.ownGL.write(toFile: consumer + "/Sources/ReadmeExample/OwnGL.swift", atomically: true, encoding: .utf8)

        // A cold build of Screenplay and everything under it, in the consumer's own .build.
        let build = try runProcess("swift", ["build"], timeout: 1200, directory: consumer)
        let log = build.stdout + build.stderr
        XCTAssertFalse(build.timedOut, "swift build of the consumer package timed out:\n\(log)")
        XCTAssertEqual(build.status, 0, "the README's library example does not build in a dependent package:\n\(log)")
        let findings = PackageCheckout.findings(in: log)
        XCTAssertEqual(
            findings, [], "building a package that depends on Screenplay printed warnings or errors:\n\(log)")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: consumer + "/.build/debug/ReadmeExample"),
            "no ReadmeExample binary after the build:\n\(log)")
    }
}
