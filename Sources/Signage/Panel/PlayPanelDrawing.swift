import Dispatch
import Foundation
import Screenplay

/// A panel's frame: the item on screen, a crossfade's blend, or the
/// override over them, turned for a panel mounted rotated.
extension PlayPanel {
    // MARK: drawing

    func draw(_ scene: Scene, in context: DrawingContext) throws {
        frame += 1
        override?.prepare(in: context)  // OVERRIDE
        let now = runner.now()
        let elapsedNow = monotonicSeconds()
        var afterDraw: (() -> Void)?
        if let next {
            next.media.prepare(in: context)
            if next.media.failure != nil || next.media.isReady, next.due {
                afterDraw = { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
                // The very first item: on screen in this same frame, unless
                // it became ready after its slot (`LateFirstItem`). The
                // evaluation after this draw brings the clock's item instead.
                if current == nil, next.media.isReady,
                    lateFirst.isLate(next.index, in: schedule, now: now, scene: scene)
                {
                    if let end = lateFirst.passOver(next.index, in: schedule, now: now) { nextEventTime = end }
                } else if current == nil, next.media.isReady, lateFirst.allowsStart(now: now) {
                    self.next = nil
                    current = Shown(index: next.index, playlist: next.playlist, media: next.media, since: elapsedNow)
                    start(next.media)
                    next.media.onChange = { [weak self] in self?.runner.ticker.tickSoon() }
                    justArrived = true
                    scene.displayLink.isPaused = !next.media.isAnimated
                }
            }
        }
        if let fade = incoming, let from = current {
            if fade.progress(at: elapsedNow) >= 1 {
                from.media.release(from: runner.app)
                current = fade.incoming
                incoming = nil
                justArrived = true
                scene.displayLink.isPaused = !fade.incoming.media.isAnimated
                afterDraw = { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
            } else {
                // The item coming in is the one a stuck draw most likely belongs to.
                scene.contentDescription = describe(fade.incoming)
                try paint(context) { try fade.draw(over: from, in: $0, at: elapsedNow, frame: self.frame) }
                finishFrame(scene, context, afterDraw)
                return
            }
        }
        if let current, justArrived, !hasShownFirstItem, !showingPlaceholder, current.playlist == playlist.name,
            lateFirst.isLate(current.index, in: schedule, now: now, scene: scene)
        {
            // The first item, chosen when the scene connected, is drawn only
            // now that GL is up: its frame would reach the screen after its
            // slot and show it in the next item's. Nothing of it is shown;
            // the clock's next item comes at its boundary.
            justArrived = false
            current.media.release(from: runner.app)
            self.current = nil
            if let end = lateFirst.passOver(current.index, in: schedule, now: now) { nextEventTime = end }
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
            finishFrame(scene, context) {}  // the runner's tick, at the boundary
            return
        }
        if let current {
            scene.contentDescription = describe(current)
            try paint(context) { c in
                try current.media.draw(in: c, seconds: elapsedNow - current.since, frame: self.frame)
            }
            // OVERRIDE: an item hidden by an override is logged once it is uncovered.
            if justArrived, override?.isShowing != true, current.index >= 0, let item = item(of: current) {
                justArrived = false
                let (name, index) = (current.playlist, current.index)
                scene.whenNextFrameShown { [weak self] shown in
                    guard let self else { return }
                    self.hasShownFirstItem = true
                    self.runner.records.itemShown(
                        output: self.outputName, playlist: name, index: index, item: item, shown: shown)
                }
                afterDraw = afterDraw ?? { [weak self] in self?.evaluate(now: self?.runner.now() ?? now) }
            }
        } else {
            // Nothing ready yet (never black: a neutral grey).
            try paint(context) { try $0.clear(RGBColor(hex: 0x404040)) }
        }
        finishFrame(scene, context, afterDraw)
    }

    /// Names what is drawn for messages about the draw (a stuck one is
    /// remembered by this label: `HungItems`).
    func describe(_ shown: Shown) -> String {
        guard shown.index >= 0 else { return "the placeholder" }
        return item(of: shown)?.label ?? "an item of playlist \"\(shown.playlist)\""
    }

    /// The item a shown one is, looked up in its own playlist: during a
    /// schedule's switch the outgoing item belongs to the playlist before.
    func item(of shown: Shown) -> PlayItem? {
        let items =
            shown.playlist == playlist.name ? playlist.items : assigned.items(ofPlaylist: shown.playlist)
        guard let items, items.indices.contains(shown.index) else { return nil }
        return items[shown.index]
    }

    /// Draws through a turned layer on a panel mounted rotated; while an
    /// override shows, it is drawn instead of `body`.
    func paint(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        if let override, override.isShowing {
            // OVERRIDE: the whole panel shows it; the schedule goes on underneath.
            hasShownFirstItem = true
            scene?.contentDescription = "the override \(override.entry.label)"
            return try turned(context) { try override.draw(in: $0, frame: frame) }
        }
        try turned(context, body)
    }

    /// Turns the content back on a panel mounted rotated; a wall's tile shows its part of the canvas.
    func turned(_ context: DrawingContext, _ body: (DrawingContext) throws -> Void) throws {
        func part(_ on: DrawingContext) throws { try assigned.entry.tile.map { try $0.draw(on: on, body) } ?? body(on) }
        // The panel hangs turned clockwise: the content turns back (and a
        // tile also undoes its output's turn: `turnsUndoingTheOutput`).
        let turns = turnsUndoingTheOutput - rotate / 90
        if turns % 4 == 0 { return try part(context) }
        try context.drawLayer(quarterTurnsClockwise: turns, part)
    }

    func finishFrame(_ scene: Scene, _ context: DrawingContext, _ afterDraw: (() -> Void)?) {
        // OVERRIDE: an animated override (video, shader) keeps frames coming
        // whatever the item underneath asked for.
        if override?.isAnimated == true { scene.displayLink.isPaused = false }
        if probe {
            runner.records.probeFrame(output: outputName, context: context, values: current?.media.probeValues ?? [:])
        }
        if let afterDraw {
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    afterDraw(); self.runner.ticker.schedule()
                }
            }
        }
    }
}
