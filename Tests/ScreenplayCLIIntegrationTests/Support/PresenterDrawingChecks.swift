import Documents
import Foundation
import TestHarness
import TestSupport
import XCTest

/// What the drawing test reads on the screens: the slide's place on each,
/// the colours a line leaves, and the boxes its segments repainted.
extension PresenterDrawingTests {
    /// The console on HEADLESS-1 (1280x720); audiences on HEADLESS-2
    /// (1024x768: the 16:9 slide between 96-pixel bars) and HEADLESS-3 (1920x1080).
    static let outputs = PresenterPointerTests.outputs
    static let layout = PresenterPointerTests.layout
    static let audiences = PresenterPointerTests.audiences

    func slideFrame(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        fitRect(
            contentWidth: SampleDeck.pageSize.width, contentHeight: SampleDeck.pageSize.height, width: width,
            height: height)
    }

    func close(_ a: RGB, _ b: RGB, _ tolerance: Int = 6) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
            && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// The highlighter's yellow at 40 % over `color`.
    func highlighted(_ color: RGB) -> RGB {
        func mix(_ over: Double, _ under: UInt8) -> UInt8 { UInt8((0.4 * over + 0.6 * Double(under)).rounded()) }
        return RGB(r: mix(255, color.r), g: mix(255, color.g), b: mix(0, color.b))
    }

    func waitForPixel(_ rig: SwayRig, _ output: String, _ spot: (x: Int, y: Int), _ color: RGB) -> Bool {
        waitUntil(timeout: 5, poll: 0.02) {
            guard let image = try? rig.capture(output: output) else { return false }
            return self.close(image.pixel(x: spot.x, y: spot.y), color)
        }
    }

    func pixel(_ rig: SwayRig, _ output: String, _ spot: (x: Int, y: Int)) -> String {
        (try? rig.capture(output: output)).map { "\($0.pixel(x: spot.x, y: spot.y))" } ?? "no capture"
    }

    func type(_ args: [String], _ env: [String: String]) throws {
        let r = try runProcess("wtype", ["-s", "120"] + args, environment: env, timeout: 5)
        XCTAssertEqual(r.status, 0, "wtype \(args): \(r.stderr)")
    }

    /// The stroke's segments since event `since` asked each screen for a
    /// small box, together covering `along` (a point of the line); the
    /// audience frames drawing them repainted such boxes, after at most
    /// one whole frame per buffer of the swap chain.
    func assertRepaintedOnlyWhereTheLineGrew(
        _ p: RunningProcess, since: Int, along: [String: (x: Int, y: Int)], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let events = p.statsEvents.dropFirst(since)
        let segments = events.filter { $0.event == "ink" && $0.raw["phase"] as? String == "segment" }
        XCTAssertGreaterThan(segments.count, 10, "a segment per motion", file: file, line: line)
        let sizes = Self.audiences.merging(["console": (width: 1280, height: 720)]) { a, _ in a }
        var asked: [String: [[Int]]] = [:]
        for segment in segments {
            let dirty = try XCTUnwrap(segment.raw["dirty"] as? [String: [Int]], file: file, line: line)
            XCTAssertEqual(Set(dirty.keys), ["console", "HEADLESS-2", "HEADLESS-3"], file: file, line: line)
            for (view, rect) in dirty { asked[view, default: []].append(rect) }
        }
        for (view, rects) in asked {
            let size = try XCTUnwrap(sizes[view])
            for rect in rects {
                XCTAssertLessThan(
                    rect[2] * rect[3] * 100, size.width * size.height,
                    "\(view): a segment asked to repaint \(rect), 1 % of the screen or more", file: file, line: line)
            }
        }
        for (output, spot) in along where output != "HEADLESS-1" {
            XCTAssertTrue(
                asked[output, default: []].contains {
                    spot.x >= $0[0] && spot.x < $0[0] + $0[2] && spot.y >= $0[1] && spot.y < $0[1] + $0[3]
                }, "\(output): no segment's box holds the line's pixel \(spot)", file: file, line: line)
        }
        for output in Self.audiences.keys.sorted() {
            let size = Self.audiences[output]!
            let frames = events.filter {
                $0.event == "drawn" && $0.output == output && $0.raw["ink_version"] != nil
            }.compactMap { $0.raw["redraw_rect"] as? [Int] }
            let whole = frames.filter { $0 == [0, 0, size.width, size.height] }
            let partial = frames.filter { $0 != [0, 0, size.width, size.height] }
            XCTAssertLessThanOrEqual(whole.count, 4, "\(output): whole frames while drawing", file: file, line: line)
            // The strokes wait for each segment's frames (drag frameByFrame):
            // a frame a segment, 20 or more a stroke.
            XCTAssertGreaterThanOrEqual(partial.count, 15, "\(output): frames \(frames)", file: file, line: line)
            for rect in partial {
                XCTAssertLessThan(
                    rect[2] * rect[3] * 20, size.width * size.height,
                    "\(output) repainted \(rect) for a segment: 5 % of the screen or more", file: file, line: line)
            }
            print(
                "drawing \(output): \(partial.count) partial frames (\(partial.map { $0[2] * $0[3] }.max() ?? 0) px at most), \(whole.count) whole"
            )
        }
    }
}
