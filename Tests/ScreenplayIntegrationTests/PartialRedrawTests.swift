import Foundation
import Screenplay
import TestHarness
import TestSupport
import XCTest

/// A grid of 80-pixel tiles, each a colour of the test's model. Every draw
/// first clears the whole buffer to magenta (a delegate that draws
/// everything), then fills only the tiles that meet `redrawRect` (a
/// delegate that skips what is not repainted). Magenta on screen means the
/// scissor let a clear through; a tile of an older colour means the
/// repaint missed what the reused buffer lacked.
@MainActor
final class TileDelegate: SceneDelegate {
    static let tile = 80
    static let poison = RGBColor(hex: 0xff00ff)
    static var last: TileDelegate?
    var colors: [RGBColor] = []
    var columns = 0
    /// Per draw: the repaint rectangle and the buffer's age.
    var draws: [(rect: SceneRect, age: Int)] = []

    init() { Self.last = self }
    func scene(_ scene: Scene, willConnectTo session: SceneSession) {}

    func rect(ofTile index: Int) -> SceneRect {
        SceneRect(x: index % columns * Self.tile, y: index / columns * Self.tile, width: Self.tile, height: Self.tile)
    }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        if colors.isEmpty {
            columns = context.pixelWidth / Self.tile
            colors = Array(repeating: RGBColor(hex: 0x204060), count: columns * (context.pixelHeight / Self.tile))
        }
        draws.append((context.redrawRect, scene.lastBufferAge))
        try context.clear(Self.poison)
        for (index, color) in colors.enumerated() where !rect(ofTile: index).intersection(context.redrawRect).isEmpty {
            let r = rect(ofTile: index)
            try context.fill(x: r.x, y: r.y, width: r.width, height: r.height, color: color)
        }
    }
}

final class PartialRedrawTests: ScreenplayTestCase {
    /// Tiles changed one per frame, apart from each other, so a repaint
    /// of several frames' damage spans tiles that did not change.
    static let changed = [10, 3, 44, 20, 27, 5, 38, 12]

    func testOnlyTheDamagedRectangleIsRepaintedAndTheScreenShowsEveryChange() throws {
        try MainActor.assumeIsolated { try Self.damagedTiles() }
    }

    @MainActor
    private static func damagedTiles() throws {
        TileDelegate.last = nil
        try OwnGLTests.withTV({ TileDelegate() }) { rig, app in
            OwnLoopRig.drive(app, seconds: 10) { TileDelegate.last?.draws.count == 1 }
            guard let delegate = TileDelegate.last, let scene = app.scenes.first else {
                return XCTFail("no scene was made")
            }
            let whole = SceneRect(x: 0, y: 0, width: 640, height: 480)
            XCTAssertEqual(delegate.draws.first?.rect, whole, "the first frame repaints everything")
            XCTAssertEqual(scene.redrawnPixels, 640 * 480)
            for (step, tile) in changed.enumerated() {
                delegate.colors[tile] = RGBColor(hex: 0x30e010 + UInt32(step) * 0x200000)
                scene.setNeedsDisplay(in: delegate.rect(ofTile: tile))
                OwnLoopRig.drive(app, seconds: 5) { delegate.draws.count == step + 2 }
                var seen: RigImage?
                OwnLoopRig.drive(app, seconds: 5) {
                    seen = try? rig.capture(output: "HEADLESS-2")
                    return seen.map { wrongTiles($0, delegate).isEmpty } ?? false
                }
                guard let seen else { return XCTFail("no capture of HEADLESS-2") }
                XCTAssertEqual(wrongTiles(seen, delegate), [], "after changing tile \(tile) (frame \(step + 2))")
                XCTAssertEqual(seen.fraction(of: RGB(hex: 0xff00ff), tolerance: 8), 0, "no clear escaped the scissor")
            }
            XCTAssertEqual(delegate.draws.count, changed.count + 1, "one draw per change")
            let partial = delegate.draws.dropFirst()
            for (draw, tile) in zip(partial, changed) {
                let r = delegate.rect(ofTile: tile)
                XCTAssertEqual(draw.rect.intersection(r), r, "the repaint holds the tile that changed")
            }
            XCTAssertEqual(
                scene.redrawnPixels, delegate.draws.map(\.rect.area).reduce(0, +), "redrawnPixels adds up the repaints")
            let driver = try app.graphicsDriver()
            let (bufferAge, sharedMemory) = (driver.offersBufferAge, driver.presentsThroughSharedMemory)
            if sharedMemory {
                // The scene's framebuffer always holds the last frame: each
                // change repaints its tile and nothing else, from the first.
                XCTAssertEqual(
                    partial.map(\.rect), changed.map { delegate.rect(ofTile: $0) },
                    "through wl_shm, each frame repaints exactly the changed tile")
                XCTAssertTrue(partial.allSatisfy { $0.age == 1 }, "ages \(partial.map(\.age))")
            } else if bufferAge {
                // The window's buffers themselves are reused: a buffer two
                // frames old repaints the last frame's tile too.
                XCTAssertTrue(partial.contains { $0.age >= 2 }, "buffers were reused: ages \(partial.map(\.age))")
                XCTAssertTrue(
                    partial.allSatisfy { $0.rect.area < whole.area / 4 },
                    "a one-tile change repaints less than the whole window: \(partial.map(\.rect))")
            } else {
                // The first change makes the scene's retained copy (drawn
                // whole); the copy then always holds the last frame, so each
                // change repaints its tile and nothing else.
                XCTAssertEqual(partial.first?.rect, whole, "the frame that makes the retained copy")
                XCTAssertEqual(
                    partial.dropFirst().map(\.rect), changed.dropFirst().map { delegate.rect(ofTile: $0) },
                    "without buffer age, the retained copy repaints exactly the changed tile")
            }
        }
    }

    /// The tiles whose centre on screen is not the model's colour.
    @MainActor
    private static func wrongTiles(_ image: RigImage, _ delegate: TileDelegate) -> [String] {
        delegate.colors.indices.compactMap { index in
            let r = delegate.rect(ofTile: index)
            let expected = RGB(hex: delegate.colors[index].hex)
            let got = image[r.x + r.width / 2, r.y + r.height / 2]
            return got.distance(to: expected) <= 4 ? nil : "tile \(index): \(got), expected \(expected)"
        }
    }

    func testAChangeOutsideTheBufferOrNoneDrawsNothing() throws {
        try MainActor.assumeIsolated {
            TileDelegate.last = nil
            try OwnGLTests.withTV({ TileDelegate() }) { _, app in
                OwnLoopRig.drive(app, seconds: 10) { TileDelegate.last?.draws.count == 1 }
                guard let scene = app.scenes.first else { return XCTFail("no scene was made") }
                OwnLoopRig.drive(app, seconds: 0.5) { false }
                let before = scene.drawCount
                scene.setNeedsDisplay(in: SceneRect(x: 700, y: 0, width: 50, height: 50))
                scene.setNeedsDisplay(in: SceneRect(x: 10, y: 10, width: 0, height: 50))
                OwnLoopRig.drive(app, seconds: 1) { false }
                XCTAssertEqual(scene.drawCount, before, "a rectangle outside the buffer or empty draws no frame")
                scene.setNeedsDisplay(in: SceneRect(x: 600, y: 440, width: 100, height: 100))
                OwnLoopRig.drive(app, seconds: 2) { scene.drawCount > before }
                XCTAssertEqual(scene.drawCount, before + 1, "a rectangle reaching into the buffer draws once")
                XCTAssertEqual(
                    TileDelegate.last?.draws.last?.rect.intersection(SceneRect(x: 600, y: 440, width: 40, height: 40)),
                    SceneRect(x: 600, y: 440, width: 40, height: 40), "the part inside is repainted")
            }
        }
    }
}
