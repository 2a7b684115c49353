import Documents
import Foundation
import Presenter
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// An app of its own opens a talk through the `Presenter` product, without
/// the tool: the slide reaches the external screen, and a page turned from
/// the app's code reaches it too (pixels read back with grim).
final class TalkEmbeddingTests: ScreenplayTestCase {
    @MainActor
    func testAnAppOpensATalkAndTurnsAPage() async throws {
        let rig = try SwayRig.start(outputs: [.init(width: 1280, height: 720), .init(width: 960, height: 540)])
        addTeardownBlock { rig.stop() }
        let directory = NSTemporaryDirectory() + "talk-embedding.\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let deck = try SampleDeck.write(to: directory)

        var options = ApplicationOptions()
        options.displayName = rig.waylandDisplay
        options.builtInPatterns = ["HEADLESS-1"]
        options.targets = .externalScreens
        let app = try Application(options: options)
        defer { app.shutdown() }

        let said = Said()
        var talkOptions = TalkOptions()
        talkOptions.messages = TalkMessages { _, text in said.append(text) }
        let talk = try Talk(path: deck.pdf, options: talkOptions)
        var states: [Int] = []
        talk.onEvent = { event in
            if event.name == "state", let page = event.fields["page"] as? Int { states.append(page) }
        }
        try talk.start(on: app)
        defer { talk.close() }
        XCTAssertEqual(talk.pageCount, SampleDeck.pageCount)
        XCTAssertEqual(talk.page, 0)

        let first = RGB(hex: SampleDeck.backgrounds[0])
        let second = RGB(hex: SampleDeck.backgrounds[1])
        try await waitForPage(rig, showing: first, notShowing: second, "page 1 on the external screen", said)
        XCTAssertEqual(talk.audienceScenes.map { $0.screen?.name }, ["HEADLESS-2"], "the audience only there")
        // The console is a window: its screen is known when the compositor
        // says the surface entered an output, which may come after the
        // audience's first frame.
        let consoleDeadline = Date().addingTimeInterval(10)
        while talk.console?.screen == nil, Date() < consoleDeadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        XCTAssertEqual(talk.console?.screen?.name, "HEADLESS-1", "the console on the built-in screen")

        talk.next()
        XCTAssertEqual(talk.page, 1)
        try await waitForPage(rig, showing: second, notShowing: first, "page 2 after next()", said)
        XCTAssertEqual(states.last, 2, "the page turn is an event: \(states)")
        XCTAssertTrue(talk.isTimerRunning, "the first page turn starts the timer")
    }

    /// Waits until the output shows most of `showing` (the page's
    /// background around its text) and none of `notShowing`.
    @MainActor
    private func waitForPage(
        _ rig: SwayRig, showing: RGB, notShowing: RGB, _ what: String, _ said: Said,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let end = Date().addingTimeInterval(10)
        var seen = (showing: 0.0, other: 1.0)
        while Date() < end {
            if let image = try? rig.capture(output: "HEADLESS-2") {
                seen = (image.fraction(of: showing, tolerance: 2), image.fraction(of: notShowing, tolerance: 2))
                if seen.showing > 0.5, seen.other == 0 { return }
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        XCTFail(
            "\(what): \(Int(seen.showing * 100)) % of HEADLESS-2 is \(showing), \(Int(seen.other * 100)) % \(notShowing); the talk said: \(said.lines)",
            file: file, line: line)
    }
}

/// The talk's messages, kept for a failure's message.
final class Said: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    func append(_ line: String) { lock.withLock { kept.append(line) } }
    var lines: [String] { lock.withLock { kept } }
}
