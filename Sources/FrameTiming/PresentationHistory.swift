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
public struct FrameWindow: Sendable, Equatable {
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
}

/// Bounded history of presentation feedback for one surface.
///
/// Like mpv's present_sync, it derives timing from `(timestamp, sequence)`
/// pairs: when the compositor supplies vblank sequence numbers, the refresh
/// period can be measured as Δtimestamp / Δsequence even when the reported
/// refresh is 0 (e.g. variable refresh).
/// All timestamps must come from one monotonic clock.
public struct PresentationHistory: Sendable {
    private var records: RingBuffer<PresentationRecord>

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
        windowPresented += 1
        guard timestampNs != 0 else { return }
        if let last = records.last {
            guard timestampNs > last.timestampNs else { return }
        }
        if windowStartNs == nil { windowStartNs = timestampNs }
        records.append(PresentationRecord(timestampNs: timestampNs, refreshNs: refreshNs, sequence: sequence))
    }

    /// Records a frame that the compositor never showed.
    public mutating func discarded() {
        windowDiscarded += 1
    }

    /// Timestamp of the latest presentation, if any.
    public var lastPresentationNs: UInt64? { records.last?.timestampNs }

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

    /// Starts a new statistics window at `nowNs`, discarding counts so far.
    private mutating func startWindow(nowNs: UInt64) {
        windowPresented = 0
        windowDiscarded = 0
        windowStartNs = nowNs
    }

    /// Returns the counts since the previous drain and starts a new window
    /// at `nowNs`.
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
