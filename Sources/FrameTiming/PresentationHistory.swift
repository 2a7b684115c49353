/// One frame that reached the screen, as reported by presentation feedback.
public struct PresentationRecord: Sendable, Equatable {
    /// When the frame turned into light, in nanoseconds on the compositor's
    /// presentation clock.
    public var timestampNs: UInt64
    /// The refresh period the compositor reported with it (0 = unknown).
    public var refreshNs: UInt64
    /// The output's vblank counter (`seq` / MSC), if the compositor has one.
    public var sequence: UInt64?

    /// Creates a record.
    public init(timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64?) {
        self.timestampNs = timestampNs
        self.refreshNs = refreshNs
        self.sequence = sequence
    }
}

/// Frame counts accumulated between two calls of
/// ``PresentationHistory/drainWindow(nowNs:)``; the raw material for a
/// once-a-second statistics line.
public struct FrameWindow: Sendable, Equatable, CustomStringConvertible {
    /// Frames that reached the screen in the window.
    public var presented: Int
    /// Frames the compositor discarded (never shown) in the window.
    public var discarded: Int
    /// Best known refresh period at the end of the window, if any.
    public var refreshNs: Int64?
    /// Length of the window in seconds (0 if unknown).
    public var windowSeconds: Double

    /// Creates a window.
    public init(presented: Int, discarded: Int, refreshNs: Int64?, windowSeconds: Double) {
        self.presented = presented
        self.discarded = discarded
        self.refreshNs = refreshNs
        self.windowSeconds = windowSeconds
    }

    /// Presented frames per second, or `nil` for an empty window.
    public var framesPerSecond: Double? {
        windowSeconds > 0 ? Double(presented) / windowSeconds : nil
    }

    /// Refresh rate in hertz, if the refresh period is known.
    public var refreshHertz: Double? {
        guard let ns = refreshNs, ns > 0 else { return nil }
        return 1e9 / Double(ns)
    }

    /// E.g. `59.9 fps (60 presented, 0 discarded in 1.00 s) @ 60.00 Hz`.
    public var description: String {
        let fps = framesPerSecond.map { formatFixed($0, digits: 1) } ?? "-"
        let hz = refreshHertz.map { " @ \(formatFixed($0, digits: 2)) Hz" } ?? ""
        return
            "\(fps) fps (\(presented) presented, \(discarded) discarded in \(formatFixed(windowSeconds, digits: 2)) s)\(hz)"
    }
}

/// Bounded history of presentation feedback for one surface.
///
/// Like mpv's present_sync, it derives timing from `(timestamp, sequence)`
/// pairs: when the compositor supplies vblank sequence numbers, the refresh
/// period can be measured as Δtimestamp / Δsequence and skipped vblanks
/// counted, even when the reported refresh is 0 (e.g. variable refresh).
/// All timestamps must come from one monotonic clock.
public struct PresentationHistory: Sendable {
    private var records: RingBuffer<PresentationRecord>

    /// Frames presented since creation.
    public private(set) var totalPresented: UInt64 = 0
    /// Frames discarded since creation.
    public private(set) var totalDiscarded: UInt64 = 0
    /// Vblanks that passed without a new frame between consecutive
    /// presentations, counted from sequence numbers.
    public private(set) var skippedRefreshes: UInt64 = 0

    private var windowPresented = 0
    private var windowDiscarded = 0
    private var windowStartNs: UInt64?

    /// Creates an empty history keeping the latest `capacity` presentations
    /// (at least 2, so an interval can always be measured).
    public init(capacity: Int = 1024) {
        records = RingBuffer(capacity: max(capacity, 2))
    }

    /// The retained presentations, oldest first.
    public var presentations: [PresentationRecord] { Array(records) }

    /// Records a presented frame.
    ///
    /// A zero timestamp, or one that does not move forward, still counts as a
    /// presentation but is kept out of the timing data: mpv treats an
    /// unchanged timestamp as "no new information" for the same reason.
    public mutating func presented(timestampNs: UInt64, refreshNs: UInt64, sequence: UInt64?) {
        totalPresented &+= 1
        windowPresented += 1
        guard timestampNs != 0 else { return }
        if let last = records.last {
            guard timestampNs > last.timestampNs else { return }
            if let seq = sequence, let lastSeq = last.sequence, seq > lastSeq, seq - lastSeq > 1 {
                skippedRefreshes &+= seq - lastSeq - 1
            }
        }
        if windowStartNs == nil { windowStartNs = timestampNs }
        records.append(PresentationRecord(timestampNs: timestampNs, refreshNs: refreshNs, sequence: sequence))
    }

    /// Records a frame that the compositor never showed.
    public mutating func discarded() {
        totalDiscarded &+= 1
        windowDiscarded += 1
    }

    /// Timestamp of the latest presentation, if any.
    public var lastPresentationNs: UInt64? { records.last?.timestampNs }

    /// Vblank sequence of the latest presentation, if known.
    public var lastSequence: UInt64? { records.last?.sequence }

    /// Refresh period measured from the last two presentations that carry
    /// sequence numbers (Δtimestamp / Δsequence), or `nil`.
    public var measuredRefreshNs: Int64? {
        guard records.count >= 2 else { return nil }
        let current = records[records.count - 1]
        let previous = records[records.count - 2]
        guard let seq = current.sequence, let prevSeq = previous.sequence, seq > prevSeq else { return nil }
        let ns = (current.timestampNs - previous.timestampNs) / (seq - prevSeq)
        return ns > 0 && ns <= UInt64(nanosecondsPerSecond) ? Int64(ns) : nil
    }

    /// Best known refresh period: the latest reported one if usable (see
    /// ``RefreshRate``), else the measured one, else `nil`.
    public var refreshNs: Int64? {
        if let reported = records.last?.refreshNs {
            let rate = RefreshRate.resolve(presentationRefreshNs: reported, modeRefreshMilliHz: nil)
            if rate.source == .presentation { return rate.durationNs }
        }
        return measuredRefreshNs
    }

    /// Predicted time of the next vblank: one refresh after the latest
    /// presentation or, given `nowNs`, the first vblank on that grid after
    /// `nowNs`. `nil` until a presentation and a refresh period are known.
    public func predictedNextPresentationNs(nowNs: UInt64? = nil) -> UInt64? {
        guard let last = lastPresentationNs, let refresh = refreshNs else { return nil }
        return VBlankGrid.next(after: last, periodNs: refresh, nowNs: nowNs)
    }

    /// Frames per second measured over the presentations within `windowNs`
    /// before the latest one: (frames − 1) / (span between first and last),
    /// which is exact for a steady cadence. `nil` with fewer than two frames.
    public func measuredFramesPerSecond(windowNs: UInt64 = 1_000_000_000) -> Double? {
        guard let last = records.last else { return nil }
        let cutoff = last.timestampNs >= windowNs ? last.timestampNs - windowNs : 0
        var first = last.timestampNs
        var count = 0
        for record in records.reversed() {
            guard record.timestampNs >= cutoff else { break }
            first = record.timestampNs
            count += 1
        }
        guard count >= 2, last.timestampNs > first else { return nil }
        return Double(count - 1) * 1e9 / Double(last.timestampNs - first)
    }

    /// Nanoseconds between consecutive retained presentations, oldest first.
    public var intervalsNs: [UInt64] {
        guard records.count >= 2 else { return [] }
        return (1..<records.count).map { records[$0].timestampNs - records[$0 - 1].timestampNs }
    }

    /// ``intervalsNs`` in milliseconds, ready for ``Statistics``.
    public var intervalsMs: [Double] { intervalsNs.map { Double($0) / 1e6 } }

    /// Distribution of presentation intervals in buckets `bucketWidthMs` wide
    /// (non-empty buckets only).
    public func intervalHistogram(bucketWidthMs: Double) -> [HistogramBucket] {
        Statistics.histogram(intervalsMs, bucketWidth: bucketWidthMs)
    }

    /// Starts a new statistics window at `nowNs`, discarding counts so far.
    public mutating func startWindow(nowNs: UInt64) {
        windowPresented = 0
        windowDiscarded = 0
        windowStartNs = nowNs
    }

    /// Returns the counts since the previous drain (or ``startWindow(nowNs:)``)
    /// and starts a new window at `nowNs`.
    ///
    /// Before the first drain the window starts at the first recorded
    /// presentation; its length is 0 if nothing has been presented yet or if
    /// `nowNs` is earlier than the start.
    public mutating func drainWindow(nowNs: UInt64) -> FrameWindow {
        var seconds = 0.0
        if let start = windowStartNs, nowNs > start {
            seconds = Double(nowNs - start) / 1e9
        }
        let window = FrameWindow(
            presented: windowPresented, discarded: windowDiscarded,
            refreshNs: refreshNs, windowSeconds: seconds)
        startWindow(nowNs: nowNs)
        return window
    }
}
