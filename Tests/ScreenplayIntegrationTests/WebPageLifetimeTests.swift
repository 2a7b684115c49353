import Foundation
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// Shows a local page on the TV and lets it go once it painted, by
/// `close()` or by dropping the last reference.
@MainActor
final class PageDroppingDelegate: SceneDelegate {
    static var last: PageDroppingDelegate?
    static var folder = ""
    var page: WebPage?
    var painted = false

    init() { Self.last = self }

    func scene(_ scene: Scene, willConnectTo session: SceneSession) {
        do {
            let page = try WebPage(url: "file://\(Self.folder)/page.html", scene: scene, fileRoot: Self.folder)
            page.onPaint = { [weak self] in self?.painted = true }
            page.onFailure = { reason in XCTFail("the page failed: \(reason)") }
            self.page = page
        } catch {
            XCTFail("the page did not start: \(error)")
        }
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        if let page { try context.drawWebPage(page) }
    }
}

final class WebPageLifetimeTests: ScreenplayTestCase {
    /// The contract is to close a page in `sceneDidDisconnect(_:)`; a page
    /// an app forgets, or drops in an error path, must not keep its web
    /// process (a few hundred MiB) for the months a signage box runs.
    func testAPageDroppedWithoutCloseEndsItsWebProcess() throws {
        try MainActor.assumeIsolated { try Self.dropped(closingFirst: false) }
    }

    /// The same with `close()`, so the test above fails for the dropping
    /// alone.
    func testAClosedPageEndsItsWebProcess() throws {
        try MainActor.assumeIsolated { try Self.dropped(closingFirst: true) }
    }

    @MainActor
    private static func dropped(closingFirst: Bool) throws {
        let folder = NSTemporaryDirectory() + "screenplay-web-lifetime-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/page.html"
        try "<!doctype html><body style='margin:0;background:#2080f0'></body>".write(
            toFile: file, atomically: true, encoding: .utf8)
        PageDroppingDelegate.folder = folder
        PageDroppingDelegate.last = nil
        try OwnGLTests.withTV({ PageDroppingDelegate() }) { _, app in
            OwnLoopRig.drive(app, seconds: 30) { PageDroppingDelegate.last?.painted == true }
            guard let delegate = PageDroppingDelegate.last, delegate.painted else {
                return XCTFail("the page never painted")
            }
            XCTAssertFalse(webProcesses().isEmpty, "a web process shows the page")
            if closingFirst { delegate.page?.close() }
            delegate.page = nil
            OwnLoopRig.drive(app, seconds: 10) { webProcesses().isEmpty }
            XCTAssertEqual(
                webProcesses(), [], "the web process ended after the page was \(closingFirst ? "closed" : "dropped")")
        }
    }

    /// This process's live WPEWebProcess descendants.
    private static func webProcesses() -> [Int32] {
        ProcessUsage.descendants(of: getpid()).filter { pid in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix("WPEWebProcess")
        }
    }
}
