import Dispatch
import Foundation
import Screenplay

/// One scene's view of an image: a picture made for the scene's pixel
/// size (an SVG re-rendered, a large image scaled down, whenever the size
/// changes), and for animated GIF/WebP, the frames on time.
///
/// An animation asks for frames only while it runs, through the scene's
/// display link: between two frames of the file the link is paused and a
/// one-shot timer resumes it when the next frame is due, so a slow GIF
/// costs one drawn frame per GIF frame; when the next frame is due within
/// about a refresh the link simply keeps running. A still image, and an
/// animation that has ended, cost nothing.
@MainActor
final class ImageView {
    let image: LoadedImage
    /// Every scene counts animation time from the same moment, so panels
    /// showing one GIF show the same frame.
    private static var animationStart: UInt64?
    private var still: Picture?
    private var stillSize: (width: Int, height: Int)?
    private var player: ImageAnimationPlayer?
    private var wake: (any DispatchSourceTimer)?

    init(image: LoadedImage) { self.image = image }

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        let width = context.pixelWidth, height = context.pixelHeight
        let picture: Picture
        if image.isAnimated, player == nil { player = image.makeAnimation() }
        if let player {
            let now = monotonicNanoseconds()
            let start = Self.animationStart ?? now
            Self.animationStart = start
            let elapsed = Double(now - start) / 1e9
            player.advance(to: elapsed)
            picture = try player.picture(fitting: width, height: height)
            scheduleNextFrame(scene, due: player.nextFrameDue, elapsed: elapsed)
        } else {
            picture = try stillPicture(width: width, height: height)
        }
        try context.drawFitted(picture)
    }

    private func stillPicture(width: Int, height: Int) throws -> Picture {
        let size = image.pictureSize(fitting: width, height: height)
        if let still, let stillSize, stillSize == size { return still }
        // One picture per scene, its pixels replaced on resize: one texture.
        let made = try image.picture(fitting: width, height: height, reusing: still)
        still = made
        stillSize = size
        return made
    }

    private func scheduleNextFrame(_ scene: Scene, due: Double?, elapsed: Double) {
        wake?.cancel()
        wake = nil
        guard let due else {
            scene.displayLink.isPaused = true
            return
        }
        let wait = due - elapsed
        if wait <= scene.displayLink.duration * 1.5 {
            scene.displayLink.isPaused = false
            return
        }
        scene.displayLink.isPaused = true
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + wait)
        timer.setEventHandler { [weak scene] in
            MainActor.assumeIsolated { scene?.displayLink.isPaused = false }
        }
        timer.resume()
        wake = timer
    }

    func stop() {
        wake?.cancel()
        wake = nil
    }
}
